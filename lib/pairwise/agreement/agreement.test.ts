/**
 * Agreement on preferences, on the worked example of docs/guide/pairwise.md ("Worked example: agreement"): ten
 * pairs of five prompts, a person (ann) and a judge run (run:j1), every figure worked out by hand there.
 */
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../errors";
import { krippendorffAlpha } from "../../stats/krippendorff-alpha";
import { buildRatingTable } from "../../stats/rating-table";
import type { RaterKind, Verdict, Vote } from "../verdicts";
import { agreementRows, humanNoiseLine, humanNoiseLines, majorityVotes, peopleAlpha } from "./agreement-rows";
import { preferenceAgreement } from "./preference-agreement";
import { alphaFromCoincidences, coincidences, verdictCode } from "./verdict-statistics";

/** Krippendorff's α (nominal) over units of verdict codes, as peopleAlpha computes it. */
const krippendorffAlphaNominal = (units: readonly (readonly number[])[]) => alphaFromCoincidences(coincidences(units));

function vote(pairId: string, prompt: string, raterId: string, raterKind: RaterKind, verdict: Verdict): Vote {
  return {
    pairId,
    prompt,
    aspect: "overall",
    generatorA: "gen-a",
    generatorB: "gen-b",
    raterId,
    raterKind,
    verdict,
    strength: 1,
    aShownOn: null,
    msToVerdict: null,
    honeypot: false,
  };
}

// pair, prompt, ann's verdict, run:j1's verdict: the table of the guide.
const WORKED: [string, string, Verdict, Verdict][] = [
  ["p01", "q1", "A", "A"],
  ["p02", "q1", "B", "B"],
  ["p03", "q2", "A", "B"],
  ["p04", "q2", "tie_good", "tie_bad"],
  ["p05", "q3", "tie_good", "tie_good"],
  ["p06", "q3", "B", "B"],
  ["p07", "q4", "tie_bad", "tie_bad"],
  ["p08", "q4", "A", "tie_good"],
  ["p09", "q5", "B", "A"],
  ["p10", "q5", "A", "A"],
];
const ann = WORKED.map(([pair, prompt, verdict]) => vote(pair, prompt, "ann", "reviewer", verdict));
const judge = WORKED.map(([pair, prompt, , verdict]) => vote(pair, prompt, "run:j1", "judge", verdict));

/**
 * Krippendorff's α from its definition over pairable values, written apart from the coincidence matrix: D_o is the
 * share of disagreeing ordered pairs of values within each unit (a unit of m values weighs its pairs 1/(m − 1)),
 * D_e the share of disagreeing ordered pairs among all n pairable values; α = 1 − D_o / D_e.
 */
function referenceAlpha(units: string[][]): number {
  const pairable = units.filter((unit) => unit.length >= 2);
  const values = pairable.flat();
  const n = values.length;
  let observed = 0;
  for (const unit of pairable) {
    for (let i = 0; i < unit.length; i++) {
      for (let j = 0; j < unit.length; j++) if (i !== j && unit[i] !== unit[j]) observed += 1 / (unit.length - 1);
    }
  }
  let expected = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && values[i] !== values[j]) expected++;
  return 1 - observed / n / (expected / (n * (n - 1)));
}

describe("preferenceAgreement on the worked example", () => {
  const result = preferenceAgreement(ann, judge, { seed: 7, draws: 200 });

  it("gives the four-way, three-way and two-way accuracies worked out by hand", () => {
    expect(result.accuracy4).toMatchObject({ value: 0.6, n: 10 });
    expect(result.accuracy3).toMatchObject({ value: 0.7, n: 10 });
    expect(result.accuracy2.value).toBeCloseTo(4 / 6, 12);
    expect(result.accuracy2.n).toBe(6);
  });

  it("gives Cohen's κ = (0.6 − 0.27) / (1 − 0.27) and α = 1 − 19 · 8 / 290", () => {
    expect(result.cohenKappa.value).toBeCloseTo(0.33 / 0.73, 12);
    expect(result.krippendorffAlpha.value).toBeCloseTo(1 - (19 * 8) / 290, 12);
    const units = WORKED.map(([, , a, b]) => [a, b]);
    expect(result.krippendorffAlpha.value).toBeCloseTo(referenceAlpha(units), 12);
  });

  it("gives each figure a seeded 95% interval over prompts that holds the value and repeats with the seed", () => {
    for (const figure of Object.values(result)) {
      expect(figure.lower).not.toBeNull();
      expect(figure.lower!).toBeLessThanOrEqual(figure.value!);
      expect(figure.upper!).toBeGreaterThanOrEqual(figure.value!);
    }
    expect(preferenceAgreement(ann, judge, { seed: 7, draws: 200 })).toEqual(result);
    expect(preferenceAgreement([...ann].reverse(), judge, { seed: 7, draws: 200 })).toEqual(result);
    const none = preferenceAgreement(ann, judge, { draws: 0 });
    expect(none.accuracy4).toEqual({ value: 0.6, lower: null, upper: null, n: 10 });
  });

  it("resamples whole prompts: prompts of equal accuracy give an interval of no width", () => {
    // Every prompt has one agreeing and one disagreeing pair: any resample of prompts is at 0.5, any of pairs is not.
    const a = ["q1", "q1", "q2", "q2", "q3", "q3"].map((q, i) => vote(`p${i}`, q, "ann", "reviewer", "A"));
    const b = a.map((v, i) => ({ ...v, raterId: "bob", verdict: (i % 2 === 0 ? "A" : "B") as Verdict }));
    expect(preferenceAgreement(a, b, { seed: 3, draws: 300 }).accuracy4).toEqual({
      value: 0.5,
      lower: 0.5,
      upper: 0.5,
      n: 6,
    });
  });

  it("pairs only the pairs and aspects both sides answered, and says n = 0 with null figures when none", () => {
    const other = judge.slice(0, 4).map((v) => ({ ...v, aspect: "physics" }));
    const result = preferenceAgreement(ann, other, { draws: 10 });
    expect(result.accuracy4).toEqual({ value: null, lower: null, upper: null, n: 0 });
    expect(result.cohenKappa.value).toBeNull();
  });

  it("refuses two verdicts of one side on the same pair and aspect", () => {
    expect(() => preferenceAgreement([...ann, ann[0]!], judge)).toThrow(ValidationError);
  });

  it("refuses a bad number of draws", () => {
    expect(() => preferenceAgreement(ann, judge, { draws: -1 })).toThrow(ValidationError);
    expect(() => preferenceAgreement(ann, judge, { draws: 1.5 })).toThrow(ValidationError);
  });
});

describe("Krippendorff's α among many raters", () => {
  // Three people, some missing: units of 3, 2 and 1 (not pairable) values.
  const units: Verdict[][] = [
    ["A", "A", "B"],
    ["tie_good", "tie_good", "tie_good"],
    ["B", "B"],
    ["tie_bad", "A", "tie_bad"],
    ["A"],
    ["B", "tie_bad", "B"],
  ];

  it("matches the pairable-values definition and lib/stats' α on the same table", () => {
    const coded = units.map((unit) => unit.map(verdictCode));
    const alpha = krippendorffAlphaNominal(coded);
    expect(alpha).toBeCloseTo(referenceAlpha(units), 12);
    const table = buildRatingTable(
      units.flatMap((unit, item) => unit.map((value, rater) => ({ item: `u${item}`, rater: `r${rater}`, value }))),
    );
    expect(alpha).toBeCloseTo(krippendorffAlpha(table, "nominal")!, 12);
  });

  it("is computed by peopleAlpha over the pairs two or more people answered, with n and an interval", () => {
    const votes = units.flatMap((unit, item) =>
      unit.map((verdict, rater) => vote(`u${item}`, `q${item % 3}`, `person${rater}`, "reviewer", verdict)),
    );
    const figure = peopleAlpha(votes, { aspect: "overall", seed: 2, draws: 100 });
    expect(figure.value).toBeCloseTo(referenceAlpha(units), 12);
    expect(figure.n).toBe(5);
    expect(figure.lower).not.toBeNull();
  });

  it("is null when every pairable verdict is the same (no expected disagreement)", () => {
    expect(
      krippendorffAlphaNominal([
        [0, 0],
        [0, 0, 0],
      ]),
    ).toBeNull();
  });
});

describe("agreementRows", () => {
  // Three people (ann, bob, cy), a judge and the gold on four pairs.
  const table: [string, string, Verdict, Verdict, Verdict, Verdict, Verdict][] = [
    // pair, prompt, ann, bob, cy, judge, gold
    ["p1", "q1", "A", "A", "B", "A", "A"],
    ["p2", "q1", "B", "A", "tie_good", "B", "B"],
    ["p3", "q2", "tie_bad", "tie_bad", "tie_bad", "tie_good", "tie_bad"],
    ["p4", "q2", "A", "B", "B", "B", "B"],
  ];
  const raters: [string, RaterKind][] = [
    ["ann", "reviewer"],
    ["bob", "reviewer"],
    ["cy", "label_set"],
    ["run:j1", "judge"],
    ["gold", "gold"],
  ];
  const votes = table.flatMap(([pair, prompt, ...verdicts]) =>
    verdicts.map((verdict, i) => vote(pair, prompt, raters[i]![0], raters[i]![1], verdict)),
  );

  it("compares each person with each other person, the others' majority and the gold; each judge likewise", () => {
    const rows = agreementRows(votes, { aspect: "overall", draws: 0 });
    const labels = rows.map((row) => `${row.rater}|${row.reference}`);
    expect(labels).toEqual([
      "ann|person:bob",
      "ann|person:cy",
      "ann|people",
      "ann|gold",
      "bob|person:ann",
      "bob|person:cy",
      "bob|people",
      "bob|gold",
      "cy|person:ann",
      "cy|person:bob",
      "cy|people",
      "cy|gold",
      "run:j1|person:ann",
      "run:j1|person:bob",
      "run:j1|person:cy",
      "run:j1|people",
      "run:j1|gold",
    ]);
    const judgeVsPeople = rows.find((row) => row.rater === "run:j1" && row.reference === "people")!;
    // The people's majorities: p1 A (2 of 3), p2 none (A, B, tie_good: left out), p3 tie_bad, p4 B.
    expect(judgeVsPeople.referenceTiesLeftOut).toBe(1);
    expect(judgeVsPeople.agreement.accuracy4).toMatchObject({ value: 2 / 3, n: 3 });
    expect(judgeVsPeople.agreement.accuracy3).toMatchObject({ value: 1, n: 3 });
    const judgeVsGold = rows.find((row) => row.rater === "run:j1" && row.reference === "gold")!;
    expect(judgeVsGold.agreement.accuracy4).toMatchObject({ value: 3 / 4, n: 4 });
    // ann against the majority of bob and cy: p1 A/B tie (out), p2 A/tie_good (out), p3 tie_bad, p4 B.
    const annVsPeople = rows.find((row) => row.rater === "ann" && row.reference === "people")!;
    expect(annVsPeople.referenceTiesLeftOut).toBe(2);
    expect(annVsPeople.agreement.accuracy4).toMatchObject({ value: 0.5, n: 2 });
  });

  it("breaks no tie of the majority: a pair with two most-given verdicts is left out", () => {
    const people = [
      { rater: "ann", kind: "reviewer" as const, votes: [vote("p1", "q", "ann", "reviewer", "A")] },
      { rater: "bob", kind: "reviewer" as const, votes: [vote("p1", "q", "bob", "reviewer", "B")] },
    ];
    expect(majorityVotes(people)).toEqual({ votes: [], tiesLeftOut: 1 });
  });

  it("works with __proto__ as a rater and an aspect name", () => {
    const odd = votes.map((v) => ({
      ...v,
      aspect: "__proto__",
      raterId: v.raterId === "ann" ? "__proto__" : v.raterId,
    }));
    const rows = agreementRows(odd, { aspect: "__proto__", draws: 10 });
    expect(rows.filter((row) => row.rater === "__proto__")).toHaveLength(4);
    expect(rows.find((row) => row.reference === "person:__proto__")).toBeDefined();
    expect(humanNoiseLines(odd, { draws: 10 })).toHaveLength(1);
  });
});

describe("humanNoiseLine", () => {
  const pairs = ["p1", "p2", "p3", "p4", "p5", "p6"];
  const truth: Verdict[] = ["A", "B", "tie_good", "A", "tie_bad", "B"];
  const person = (id: string) => pairs.map((p, i) => vote(p, `q${i % 3}`, id, "reviewer", truth[i]!));
  const people = [...person("ann"), ...person("bob")];

  it("is within when the judge's three-way accuracy reaches the people's lower bound", () => {
    // tie_good for tie_bad is no miss on the three-way figure.
    const judge = pairs.map((p, i) =>
      vote(p, `q${i % 3}`, "run:good", "judge", truth[i] === "tie_bad" ? "tie_good" : truth[i]!),
    );
    const line = humanNoiseLine([...people, ...judge], { aspect: "overall", judge: "run:good", draws: 100 });
    expect(line.humanAccuracy3).toMatchObject({ value: 1, lower: 1, n: 6 });
    expect(line.judgeAccuracy3).toMatchObject({ value: 1, n: 12 });
    expect(line).toMatchObject({ within: true, reason: null });
  });

  it("is not within when the judge misses where people agree", () => {
    const judge = pairs.map((p, i) => vote(p, `q${i % 3}`, "run:bad", "judge", i === 0 ? "B" : truth[i]!));
    const line = humanNoiseLine([...people, ...judge], { aspect: "overall", judge: "run:bad", draws: 100 });
    expect(line.judgeAccuracy3.value).toBeCloseTo(5 / 6, 12);
    expect(line).toMatchObject({ within: false, reason: null });
  });

  it("says why when people's agreement cannot be computed (one person)", () => {
    const judge = pairs.map((p, i) => vote(p, `q${i % 3}`, "run:j", "judge", truth[i]!));
    const line = humanNoiseLine([...person("ann"), ...judge], { aspect: "overall", judge: "run:j", draws: 100 });
    expect(line.within).toBeNull();
    expect(line.humanAccuracy3.n).toBe(0);
    expect(line.reason).toMatch(/two people/);
  });
});
