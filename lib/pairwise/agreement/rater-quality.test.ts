/** Rater quality and the per-prompt cap, on the worked example of docs/guide/pairwise.md ("Worked example: agreement"). */
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../errors";
import type { Side, Verdict, Vote } from "../verdicts";
import { capVotesPerPrompt, raterQuality } from "./rater-quality";

function vote(pairId: string, raterId: string, verdict: Verdict, extra: Partial<Vote> = {}): Vote {
  return {
    pairId,
    prompt: "q1",
    aspect: "overall",
    generatorA: "gen-a",
    generatorB: "gen-b",
    raterId,
    raterKind: "reviewer",
    verdict,
    strength: 1,
    aShownOn: null,
    msToVerdict: null,
    honeypot: false,
    ...extra,
  };
}

describe("raterQuality", () => {
  // "always-a" answers A on every pair, whichever side A was shown on; "careful" picks by the video.
  const sides: Side[] = ["left", "right", "left", "right"];
  const alwaysA = ["h1", "p1", "p2", "p3"].map((pair, i) =>
    vote(pair, "always-a", "A", { aShownOn: sides[i]!, msToVerdict: [900, 1200, 800, 1000][i]!, honeypot: i === 0 }),
  );
  const careful: Vote[] = [
    vote("h1", "careful", "A", { aShownOn: "right", honeypot: true, msToVerdict: 4000 }),
    vote("p1", "careful", "B", { aShownOn: "right", msToVerdict: 3000 }),
    vote("p2", "careful", "tie_good", { aShownOn: "left", msToVerdict: 5000 }),
    vote("p3", "careful", "B", { aShownOn: "left" }),
  ];
  const gold: Vote[] = [vote("p1", "gold", "B", { raterKind: "gold" }), vote("p2", "gold", "A", { raterKind: "gold" })];

  it("shows the always-A rater as such, with a left rate of one half, its honeypot and gold figures", () => {
    const [a, c] = raterQuality([...alwaysA, ...careful, ...gold]);
    expect(a).toEqual({
      rater: "always-a",
      raterKind: "reviewer",
      verdicts: 4,
      honeypots: { answered: 1, correct: 1 },
      gold: { answered: 2, agreed: 1 },
      leftRate: 0.5,
      medianMsPerVerdict: 950,
      alwaysSame: "A",
    });
    // careful: h1 A shown right (not left); p1 B with A on the right, so B on the left (left); p2 a tie (left
    // out); p3 B with A on the left, so B on the right (not left): 1 of 3.
    expect(c).toEqual({
      rater: "careful",
      raterKind: "reviewer",
      verdicts: 4,
      honeypots: { answered: 1, correct: 1 },
      gold: { answered: 2, agreed: 1 },
      leftRate: 1 / 3,
      medianMsPerVerdict: 4000,
      alwaysSame: null,
    });
  });

  it("takes gold verdicts given apart, and says nothing of always-same under three verdicts", () => {
    const [a] = raterQuality(alwaysA.slice(0, 2), { gold: [vote("p1", "x", "A")] });
    expect(a!.gold).toEqual({ answered: 1, agreed: 1 });
    expect(a!.alwaysSame).toBeNull();
    expect(a!.leftRate).toBe(0.5);
  });

  it("has null rates when nothing counts, and works for a __proto__ rater", () => {
    const [p] = raterQuality([vote("p1", "__proto__", "tie_bad")]);
    expect(p).toMatchObject({ rater: "__proto__", leftRate: null, medianMsPerVerdict: null, verdicts: 1 });
  });
});

describe("capVotesPerPrompt", () => {
  const votes: Vote[] = [
    vote("p3", "ann", "A"),
    vote("p1", "ann", "B"),
    vote("p2", "ann", "A"),
    vote("p9", "ann", "A", { prompt: "q2" }),
    vote("p2", "bob", "A"),
    vote("p1", "ann", "A", { aspect: "physics" }),
  ];

  it("keeps the first `cap` verdicts by pair id per prompt, rater and aspect, and counts the dropped", () => {
    const { votes: kept, dropped } = capVotesPerPrompt(votes, 2);
    expect(dropped).toBe(1);
    expect(kept.map((v) => `${v.pairId}:${v.raterId}:${v.aspect}`)).toEqual([
      "p1:ann:overall",
      "p2:ann:overall",
      "p9:ann:overall",
      "p2:bob:overall",
      "p1:ann:physics",
    ]);
  });

  it("keeps the same verdicts whatever the input's order", () => {
    const forward = capVotesPerPrompt(votes, 1)
      .votes.map((v) => `${v.pairId}:${v.raterId}:${v.aspect}`)
      .sort();
    const backward = capVotesPerPrompt([...votes].reverse(), 1)
      .votes.map((v) => `${v.pairId}:${v.raterId}:${v.aspect}`)
      .sort();
    expect(backward).toEqual(forward);
    expect(capVotesPerPrompt(votes, 1).dropped).toBe(2);
  });

  it("refuses a cap that is not a whole number of 1 or more", () => {
    expect(() => capVotesPerPrompt(votes, 0)).toThrow(ValidationError);
    expect(() => capVotesPerPrompt(votes, 1.5)).toThrow(ValidationError);
  });
});
