import { describe, expect, it } from "vitest";
import { accuracyRows, pairwiseComparisons, type QaOutcomeRow } from "./accuracy";
import { discordantCounts, erfc, mcnemarTest } from "../../stats/mcnemar";
import { wilsonInterval } from "./wilson-interval";

describe("wilsonInterval", () => {
  it("matches Newcombe (1998), method 3: 81 of 263 → 0.2553 to 0.3662", () => {
    const ci = wilsonInterval(81, 263)!;
    expect(ci.value).toBeCloseTo(81 / 263, 12);
    expect(ci.lower).toBeCloseTo(0.2553, 4);
    expect(ci.upper).toBeCloseTo(0.3662, 4);
    expect(ci.n).toBe(263);
  });

  it("stays inside [0, 1] at 0 of n and n of n, and is symmetric about one half", () => {
    expect(wilsonInterval(0, 10)).toMatchObject({ value: 0, lower: 0 });
    expect(wilsonInterval(0, 10)!.upper).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(10, 10)).toMatchObject({ value: 1, upper: 1 });
    expect(wilsonInterval(10, 10)!.lower).toBeCloseTo(1 - 0.2775, 4);
    const half = wilsonInterval(5, 10)!;
    expect(half.lower).toBeCloseTo(0.2366, 4);
    expect(half.lower + half.upper).toBeCloseTo(1, 12);
  });

  it("has no interval for n = 0 and refuses counts that are not counts", () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
  });
});

describe("mcnemarTest", () => {
  it("uses the exact two-sided binomial for few discordant questions: 3 vs 10 → p = 2·378/8192", () => {
    expect(mcnemarTest(3, 10)).toEqual({ b: 3, c: 10, method: "exact", statistic: null, p: (2 * 378) / 8192 });
    expect(mcnemarTest(10, 3).p).toBe(mcnemarTest(3, 10).p);
    expect(mcnemarTest(12, 12).p).toBe(1);
    expect(mcnemarTest(0, 0)).toMatchObject({ p: 1, method: "exact" });
    // 0 vs 6: 2 · 0.5⁶.
    expect(mcnemarTest(0, 6).p).toBeCloseTo(2 / 64, 15);
  });

  it("uses the continuity-corrected chi-square from 25 discordant questions on (121 vs 59: χ² = 20.672, p = 5.450e-6)", () => {
    const result = mcnemarTest(121, 59);
    expect(result.method).toBe("chi_square");
    expect(result.statistic).toBeCloseTo(3721 / 180, 10);
    expect(result.p).toBeCloseTo(5.450094825e-6, 12);
    expect(mcnemarTest(12, 13).method).toBe("chi_square");
    expect(mcnemarTest(12, 12).method).toBe("exact");
  });

  it("computes erfc to double precision (against known values)", () => {
    expect(erfc(0)).toBe(1);
    expect(erfc(0.5)).toBeCloseTo(0.4795001221869535, 15);
    expect(erfc(1)).toBeCloseTo(0.15729920705028513, 15);
    expect(erfc(3) / 2.2090496998585438e-5).toBeCloseTo(1, 12);
    expect(erfc(5) / 1.5374597944280351e-12).toBeCloseTo(1, 12);
    expect(erfc(-1)).toBeCloseTo(1.842700792949715, 14);
  });

  it("counts discordant pairs only over questions both answered", () => {
    const first = new Map([
      ["q1", true],
      ["q2", true],
      ["q3", false],
      ["q4", true],
    ]);
    const second = new Map([
      ["q1", false],
      ["q2", true],
      ["q3", true],
      ["q5", false],
    ]);
    expect(discordantCounts(first, second)).toEqual({ b: 1, c: 1, n: 3 });
  });
});

describe("accuracyRows and pairwiseComparisons", () => {
  const row = (
    runId: string,
    questionId: string,
    outcome: QaOutcomeRow["outcome"],
    extra: Partial<QaOutcomeRow> = {},
  ): QaOutcomeRow => ({
    runId,
    questionId,
    format: "mc",
    category: "Step Sequencing",
    granularity: "coarse",
    outcome,
    ...extra,
  });
  const rows: QaOutcomeRow[] = [
    row("r1", "q1", "correct", { textOnly: "correct" }),
    row("r1", "q2", "correct", { textOnly: "wrong" }),
    row("r1", "q3", "wrong", { format: "open", category: null, textOnly: "wrong" }),
    row("r1", "q4", "unanswerable", { textOnly: "unanswerable" }),
    row("r1", "q5", null, { granularity: "fine", textOnly: null }),
    row("r2", "q1", "wrong"),
    row("r2", "q2", "correct"),
    row("r2", "q3", "correct", { format: "open", category: null }),
    row("r2", "q4", "correct"),
  ];

  it("counts correct, wrong, unanswerable and pending; n and the interval only over the decided", () => {
    const all = accuracyRows(rows, ["r1", "r2"]).filter((r) => r.breakdown === "all");
    expect(all).toHaveLength(2);
    const [r1, r2] = all;
    expect(r1!.outcomes).toMatchObject({ correct: 2, wrong: 1, unanswerable: 1, pending: 1 });
    expect(r1!.outcomes.accuracy).toMatchObject({ value: 2 / 3, n: 3 });
    expect(r1!.outcomes.accuracy!.lower).toBeCloseTo(wilsonInterval(2, 3)!.lower, 12);
    expect(r1!.textOnly).toMatchObject({ correct: 1, wrong: 2, unanswerable: 1, pending: 1 });
    expect(r1!.rightWithoutVideo).toBe(1);
    expect(r2!.outcomes.accuracy).toMatchObject({ value: 3 / 4, n: 4 });
    expect(r2!.textOnly).toBeNull();
  });

  it("breaks down by format, category (none last), granularity and their combinations", () => {
    const r1 = accuracyRows(rows, ["r1"]);
    expect(r1.filter((r) => r.breakdown === "format").map((r) => [r.format, r.outcomes.accuracy?.n])).toEqual([
      ["mc", 2],
      ["open", 1],
    ]);
    expect(r1.filter((r) => r.breakdown === "category").map((r) => r.category)).toEqual(["Step Sequencing", null]);
    expect(r1.filter((r) => r.breakdown === "granularity").map((r) => [r.granularity, r.outcomes.pending])).toEqual([
      ["coarse", 0],
      ["fine", 1],
    ]);
    expect(
      r1.filter((r) => r.breakdown === "format_category_granularity").map((r) => [r.format, r.category, r.granularity]),
    ).toEqual([
      ["mc", "Step Sequencing", "coarse"],
      ["mc", "Step Sequencing", "fine"],
      ["open", null, "coarse"],
    ]);
  });

  it("gives a run with no questions an empty overall row, not a missing one", () => {
    expect(accuracyRows([], ["r9"])).toEqual([
      expect.objectContaining({ runId: "r9", breakdown: "all", outcomes: expect.objectContaining({ accuracy: null }) }),
    ]);
  });

  it("compares every two runs on the questions both decided", () => {
    const [comparison] = pairwiseComparisons(rows, ["r1", "r2"]);
    // Both decided q1 (r1 right, r2 wrong), q2 (both right), q3 (r1 wrong, r2 right); q4 r1 could not decide.
    expect(comparison).toMatchObject({ first: "r1", second: "r2", n: 3, b: 1, c: 1, method: "exact", p: 1 });
    expect(comparison!.firstAccuracy).toBeCloseTo(2 / 3, 12);
    expect(comparison!.secondAccuracy).toBeCloseTo(2 / 3, 12);
  });
});
