import { describe, expect, it } from "vitest";
import { resampler, streamSeed } from "../../stats/bootstrap";
import type { Vote } from "../verdicts";
import { kendallTauB, rankingCorrelation } from "./correlation";
import { kendallTau, referencePercentile } from "../../../testkit/pairwise/ranking-reference";
import { rankVotes } from "./rank-votes";
import type { RankingOptions } from "./ranking.types";
import { vote, WORKED_EXAMPLE } from "../../../testkit/pairwise/ranking-fixtures";

const OPTIONS: RankingOptions = { tieModel: "bradley_terry", bootstrapDraws: 0, seed: 3, minVotes: 1 };

/** A judge that agrees with people except that it prefers Nimbus to Lumen on every prompt where they met. */
const JUDGE: Vote[] = WORKED_EXAMPLE.map((v) => {
  const judged = { ...v, raterId: "run:1", raterKind: "judge" as const };
  if (v.generatorA === "Lumen" && v.generatorB === "Nimbus") return { ...judged, verdict: "B" as const };
  if (v.generatorA === "Nimbus" && v.generatorB === "Lumen") return { ...judged, verdict: "A" as const };
  return judged;
});

describe("kendallTauB", () => {
  it("counts concordant and discordant pairs, with the τ-b correction for ties", () => {
    expect(kendallTauB([4, 3, 2, 1], [4, 3, 2, 1])).toBe(1);
    // One swapped pair out of six: (5 − 1) / 6.
    expect(kendallTauB([4, 3, 2, 1], [4, 2, 3, 1])).toBeCloseTo(4 / 6, 12);
    // x tied on one pair: C = 5, D = 0, n0 = 6, n1 = 1: 5 / √(5·6).
    expect(kendallTauB([4, 3, 3, 1], [4, 3, 2, 1])).toBeCloseTo(5 / Math.sqrt(30), 12);
    expect(kendallTauB([1], [1])).toBeNull();
    expect(kendallTauB([2, 2], [1, 3])).toBeNull();
  });
});

describe("kendallTau of two rankings", () => {
  it("compares the generators both rate", () => {
    const people = rankVotes(WORKED_EXAMPLE, OPTIONS);
    const judge = rankVotes(JUDGE, OPTIONS);
    expect(people.generators).toEqual(["Kestrel", "Lumen", "Nimbus", "Mirage"]);
    expect(judge.generators).toEqual(["Nimbus", "Kestrel", "Lumen", "Mirage"]);
    // Nimbus moves from third to first: two pairs discordant of six.
    expect(kendallTau(people, judge)).toEqual({ kendallTau: 2 / 6, lower: null, upper: null, generators: 4 });
  });
});

describe("rankingCorrelation", () => {
  it("refits both rankings on the same prompt draws; its interval matches a draw-by-draw recomputation", () => {
    const draws = 100;
    const correlation = rankingCorrelation(WORKED_EXAMPLE, JUDGE, { ...OPTIONS, bootstrapDraws: draws });
    expect(correlation.kendallTau).toBeCloseTo(2 / 6, 12);
    expect(correlation.generators).toBe(4);
    const prompts = ["p1", "p2", "p3", "p4", "p5", "p6"];
    const sample = new Int32Array(prompts.length);
    const taus: number[] = [];
    for (let d = 0; d < draws; d++) {
      resampler(streamSeed(3, `prompts:${d}`))(sample, prompts.length);
      const pick = (votes: Vote[]) => [...sample].flatMap((p) => votes.filter((v) => v.prompt === prompts[p]));
      const tau = kendallTau(rankVotes(pick(WORKED_EXAMPLE), OPTIONS), rankVotes(pick(JUDGE), OPTIONS)).kendallTau;
      if (tau !== null) taus.push(tau);
    }
    expect(correlation.lower).toBeCloseTo(referencePercentile(taus, 0.025), 9);
    expect(correlation.upper).toBeCloseTo(referencePercentile(taus, 0.975), 9);
    expect(correlation.lower!).toBeLessThanOrEqual(correlation.kendallTau!);
  });

  it("answers null τ when fewer than two generators are shared", () => {
    const other = [vote("p1", "Kestrel", "Zephyr", "A")];
    expect(rankingCorrelation(WORKED_EXAMPLE, other, { ...OPTIONS, bootstrapDraws: 10 })).toEqual({
      kendallTau: null,
      lower: null,
      upper: null,
      generators: 1,
    });
  });
});
