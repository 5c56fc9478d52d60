import { describe, expect, it } from "vitest";
import { DYNAMIC_CATEGORY_IDS, STATIC_CATEGORY_IDS, type DynamicCategoryId, type StaticCategoryId } from "./schemas";
import {
  hallucinationInputsFromScoreRows,
  hallucinationSummarySettingsSchema,
  summarizeHallucinationScores,
  type HallucinationScoreInputs,
} from "./scores";

function staticFrame(nonZero: Partial<Record<StaticCategoryId, number>>): Record<StaticCategoryId, number> {
  return {
    ...(Object.fromEntries(STATIC_CATEGORY_IDS.map((id) => [id, 0])) as Record<StaticCategoryId, number>),
    ...nonZero,
  };
}

function dynamicCluster(nonZero: Partial<Record<DynamicCategoryId, number>>): Record<DynamicCategoryId, number> {
  return {
    ...(Object.fromEntries(DYNAMIC_CATEGORY_IDS.map((id) => [id, 0])) as Record<DynamicCategoryId, number>),
    ...nonZero,
  };
}

// Static max per category: s1 4, s2 6, s3 10; means: s1 3, s2 4, s3 5. Dynamic max: d1 9, d4 3; means: d1 4.5, d4 1.5.
const EXAMPLE: HallucinationScoreInputs = {
  static: [staticFrame({ s1: 4, s2: 2 }), staticFrame({ s1: 2, s2: 6, s3: 10 })],
  dynamic: [dynamicCluster({ d1: 9 }), dynamicCluster({ d4: 3 })],
  inconsistency: 5,
};

describe("summarizeHallucinationScores", () => {
  it("mean-max (default): mean over categories of the worst key frame / cluster, and the overall formula", () => {
    const summary = summarizeHallucinationScores(EXAMPLE);
    expect(summary.S).toBeCloseTo(20 / 10, 10);
    expect(summary.D).toBeCloseTo(12 / 9, 10);
    expect(summary.I).toBe(5);
    expect(summary.overall).toBeCloseTo(100 - 2 * 5 - 4 * 2 - 4 * (12 / 9), 10);
    expect(summary.staticCategories).toMatchObject({ s1: 4, s2: 6, s3: 10, s4: 0 });
    expect(summary.dynamicCategories).toMatchObject({ d1: 9, d4: 3, d2: 0 });
    expect(summary.worst).toEqual({ category: "s3", value: 10 });
    expect(summary.complete).toBe(true);
    expect(summary.missingInputs).toBe(0);
    expect(summary.settings).toEqual({ aggregation: "mean-max", verdict: { on: "max_category", threshold: 5 } });
  });

  it("max-max: the single worst score", () => {
    const summary = summarizeHallucinationScores(EXAMPLE, { aggregation: "max-max" });
    expect(summary.S).toBe(10);
    expect(summary.D).toBe(9);
    expect(summary.overall).toBe(100 - 10 - 40 - 36);
  });

  it("mean-mean: mean over categories of the mean over key frames / clusters", () => {
    const summary = summarizeHallucinationScores(EXAMPLE, { aggregation: "mean-mean" });
    expect(summary.S).toBeCloseTo(12 / 10, 10);
    expect(summary.D).toBeCloseTo(6 / 9, 10);
    expect(summary.staticCategories.s3).toBe(5);
    expect(summary.overall).toBeCloseTo(100 - 10 - 4.8 - 4 * (6 / 9), 10);
  });

  it("spans 0 to 100 at the ends of the scale", () => {
    const worst = summarizeHallucinationScores({
      static: [staticFrame(Object.fromEntries(STATIC_CATEGORY_IDS.map((id) => [id, 10])))],
      dynamic: [dynamicCluster(Object.fromEntries(DYNAMIC_CATEGORY_IDS.map((id) => [id, 10])))],
      inconsistency: 10,
    });
    expect(worst.overall).toBe(0);
    const best = summarizeHallucinationScores({
      static: [staticFrame({})],
      dynamic: [dynamicCluster({})],
      inconsistency: 0,
    });
    expect(best.overall).toBe(100);
    expect(best.hallucination).toBe(false);
  });

  it("computes over what exists when key frames or categories are missing, and says so", () => {
    const summary = summarizeHallucinationScores({
      static: [staticFrame({ s1: 4 }), null, { s1: 8, s2: null }],
      dynamic: [dynamicCluster({ d2: 1 })],
      inconsistency: 2,
    });
    // s1 max 8, the other nine categories only from key frame 0 (all 0).
    expect(summary.S).toBeCloseTo(8 / 10, 10);
    expect(summary.staticCategories.s1).toBe(8);
    expect(summary.complete).toBe(false);
    expect(summary.missing).toEqual({ keyFrames: [1, 2], clusters: [], inconsistency: false });
    expect(summary.missingInputs).toBe(2);
    expect(summary.overall).toBeCloseTo(100 - 4 - 3.2 - 4 * (1 / 9), 10);
  });

  it("leaves a category with no values out of the mean instead of counting it as 0", () => {
    const summary = summarizeHallucinationScores({
      static: [{ s1: 6, s2: 2 }],
      dynamic: [dynamicCluster({})],
      inconsistency: 0,
    });
    expect(summary.S).toBe(4);
    expect(summary.staticCategories.s3).toBeNull();
    expect(summary.complete).toBe(false);
  });

  it("gives null S, overall and verdict when no static scores exist at all", () => {
    const summary = summarizeHallucinationScores({
      static: [null, null],
      dynamic: [dynamicCluster({ d1: 2 })],
      inconsistency: 1,
    });
    expect(summary.S).toBeNull();
    expect(summary.D).toBeCloseTo(2 / 9, 10);
    expect(summary.overall).toBeNull();
    expect(summary.hallucination).toBeNull();
    expect(summary.missingInputs).toBe(2);
    expect(summary.complete).toBe(false);
  });

  it("gives null I and overall when the inconsistency step failed", () => {
    const summary = summarizeHallucinationScores({ ...EXAMPLE, inconsistency: null });
    expect(summary.I).toBeNull();
    expect(summary.overall).toBeNull();
    expect(summary.missing.inconsistency).toBe(true);
    expect(summary.missingInputs).toBe(1);
    // A score at or over the threshold is a finding even with I unknown.
    expect(summary.hallucination).toBe(true);
  });

  it("max_category verdict: at or above the threshold is yes; below is no only when S, D and I are known", () => {
    const mild: HallucinationScoreInputs = {
      static: [staticFrame({ s2: 4 })],
      dynamic: [dynamicCluster({ d3: 4.5 })],
      inconsistency: 3,
    };
    expect(summarizeHallucinationScores(mild).hallucination).toBe(false);
    expect(summarizeHallucinationScores(mild, { verdict: { threshold: 4.5 } }).hallucination).toBe(true);
    expect(summarizeHallucinationScores(mild, { verdict: { threshold: 4.5 } }).worst).toEqual({
      category: "d3",
      value: 4.5,
    });
    expect(summarizeHallucinationScores({ ...mild, inconsistency: 6 }).worst).toEqual({
      category: "inconsistency",
      value: 6,
    });
    expect(summarizeHallucinationScores({ ...mild, dynamic: [null] }).hallucination).toBeNull();
    // Missing key frames alone do not block a "no" once S, D and I exist.
    expect(summarizeHallucinationScores({ ...mild, static: [staticFrame({ s2: 4 }), null] }).hallucination).toBe(false);
  });

  it("overall verdict: yes when overall is below the threshold", () => {
    const summary = summarizeHallucinationScores(EXAMPLE, { verdict: { on: "overall" } });
    expect(summary.settings.verdict).toEqual({ on: "overall", threshold: 60 });
    expect(summary.hallucination).toBe(false);
    expect(summarizeHallucinationScores(EXAMPLE, { verdict: { on: "overall", threshold: 80 } }).hallucination).toBe(
      true,
    );
    expect(
      summarizeHallucinationScores({ ...EXAMPLE, inconsistency: null }, { verdict: { on: "overall" } }).hallucination,
    ).toBeNull();
  });

  it("refuses scores outside 0–10 rather than using them", () => {
    expect(() => summarizeHallucinationScores({ ...EXAMPLE, inconsistency: 11 })).toThrow(RangeError);
    expect(() => summarizeHallucinationScores({ ...EXAMPLE, static: [{ s1: Number.NaN }] })).toThrow(/key frame 1, s1/);
  });
});

describe("settings", () => {
  it("default to mean-max and a max_category verdict at 5", () => {
    expect(hallucinationSummarySettingsSchema.parse({})).toEqual({
      aggregation: "mean-max",
      verdict: { on: "max_category", threshold: 5 },
    });
    expect(hallucinationSummarySettingsSchema.parse({ aggregation: "max-max" })).toEqual({
      aggregation: "max-max",
      verdict: { on: "max_category", threshold: 5 },
    });
  });

  it("check the threshold against the verdict's scale and reject unknown modes", () => {
    expect(
      hallucinationSummarySettingsSchema.safeParse({ verdict: { on: "max_category", threshold: 60 } }).success,
    ).toBe(false);
    expect(hallucinationSummarySettingsSchema.safeParse({ verdict: { on: "overall", threshold: 60 } }).success).toBe(
      true,
    );
    expect(hallucinationSummarySettingsSchema.safeParse({ aggregation: "median" }).success).toBe(false);
  });
});

describe("hallucinationInputsFromScoreRows", () => {
  it("rebuilds per key frame and per cluster scores, with nulls where a step left none", () => {
    const rows = [
      ...STATIC_CATEGORY_IDS.map((category) => ({ stepId: "static_hallucination", scopeIndex: 1, category, value: 3 })),
      { stepId: "dynamic_hallucination", scopeIndex: 0, category: "d2", value: 7 },
      { stepId: "inconsistency", scopeIndex: 0, category: "inconsistency", value: 4 },
      { stepId: "static_hallucination", scopeIndex: 9, category: "s1", value: 10 },
      { stepId: "caption", scopeIndex: 0, category: "s1", value: 10 },
    ];
    const inputs = hallucinationInputsFromScoreRows(rows, { keyFrameCount: 2, clusterCount: 2 });
    expect(inputs.static[0]).toBeNull();
    expect(inputs.static[1]).toEqual(staticFrame(Object.fromEntries(STATIC_CATEGORY_IDS.map((id) => [id, 3]))));
    expect(inputs.dynamic).toEqual([{ d2: 7 }, null]);
    expect(inputs.inconsistency).toBe(4);
    const summary = summarizeHallucinationScores(inputs);
    expect(summary.missing).toEqual({ keyFrames: [0], clusters: [0, 1], inconsistency: false });
    expect(summary.S).toBe(3);
    expect(summary.D).toBe(7);
    expect(summary.hallucination).toBe(true);
  });
});
