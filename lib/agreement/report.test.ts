import { describe, expect, it } from "vitest";
import { agreementReport } from "./report/agreement-report";
import { binarise } from "../../testkit/agreement/binarise";
import { binaryMetrics } from "./report/confusion";
import { nativeBlock } from "./report/native-block";
import { mulberry32 } from "../stats/bootstrap";
import { cohensKappa } from "../stats/cohens-kappa";
import { krippendorffAlpha } from "../stats/krippendorff-alpha";
import { RatingTableBuilder } from "../stats/rating-table";
import { type AgreementInput, type AgreementItem, DEFAULT_AGREEMENT_OPTIONS, type VideoJudgeValues } from "./types";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

/*
 * A hand-built study, every expected number worked out on paper (comments show the arithmetic).
 * Reviewers A and B; one run on endpoint e1; threshold 5 (scores), 60 (overall).
 *
 * scores (s1)   judge   A   B   consensus (median)   judge≥5  consensus≥5
 *   k1            8     9   7   8                       1         1   tp
 *   k2            2     1   3   2                       0         0   tn
 *   k3            6     2   2   2                       1         0   fp
 *   k4            3     7   6   6.5                     0         1   fn
 * verdicts      judge   A   B   consensus
 *   v1            1     1   1   1                                    tp
 *   v2            1     0   0   0                                    fp
 *   v3            0     1   0   tie → none (left out)
 *   v4            0     0   –   0                                    tn
 * overall       judge   A       consensus
 *   o1           55    70       70      judge <60 → 1, human 0      fp
 */
const options = { ...DEFAULT_AGREEMENT_OPTIONS, iterations: 100 };

let seq = 0;
function item(
  partial: Partial<AgreementItem> & Pick<AgreementItem, "targetType" | "judge">,
  ratings: Record<string, number>,
): AgreementItem {
  seq++;
  return {
    key: `r1|k${seq}`,
    targetKey: `k${seq}`,
    runId: "r1",
    videoId: `vid${seq}`,
    category: partial.targetType === "score" ? "s1" : partial.targetType,
    stepId: partial.targetType === "score" ? "static_hallucination" : null,
    scopeIndex: partial.targetType === "score" ? 0 : null,
    dimensions: ["Mechanics"],
    model: "Sora",
    endpointId: "e1",
    promptVersion: "aaaaaaaaaaaa",
    ...partial,
    ratings: Object.entries(ratings).map(([reviewerId, value]) => ({ reviewerId, value })),
  };
}
const values = (I: number | null, overall: number | null): VideoJudgeValues => ({
  I,
  overall,
  S: null,
  D: null,
  worst: I,
});

function study(): AgreementInput {
  seq = 0;
  const items = [
    item({ targetType: "score", judge: 8 }, { A: 9, B: 7 }),
    item({ targetType: "score", judge: 2 }, { A: 1, B: 3 }),
    item({ targetType: "score", judge: 6 }, { A: 2, B: 2 }),
    item({ targetType: "score", judge: 3, dimensions: ["Mechanics", "Thermotics"], model: "Kling" }, { A: 7, B: 6 }),
    item({ targetType: "verdict", judge: 1, videoValues: values(7, 40) }, { A: 1, B: 1 }),
    item({ targetType: "verdict", judge: 1, videoValues: values(4, 70) }, { A: 0, B: 0 }),
    item({ targetType: "verdict", judge: 0, videoValues: values(9, 20) }, { A: 1, B: 0 }),
    item({ targetType: "verdict", judge: 0, videoValues: values(1, 90) }, { A: 0 }),
    item({ targetType: "overall", judge: 55 }, { A: 70 }),
    item({ targetType: "score", judge: 4 }, {}), // not reviewed: in no statistic
  ];
  return {
    items,
    reviewers: [
      { id: "A", label: "Ann" },
      { id: "B", label: "Bob" },
      { id: "C", label: "Cy (no judgments)" },
    ],
    runs: [{ id: "r1", endpointId: "e1", endpointName: "gpt", model: "gpt-4o", createdAt: "2026-01-01T00:00:00.000Z" }],
    videoCount: 10,
    judgeItemCount: 10,
    tasks: BUILT_IN_DECLARATIONS.tasks,
  };
}

/** Every number in the report is finite or null: no NaN or Infinity hides anywhere (JSON would turn NaN into null silently). */
function assertNoNaN(value: unknown, path = "report"): void {
  if (typeof value === "number") expect(Number.isFinite(value), path).toBe(true);
  else if (Array.isArray(value)) value.forEach((v, i) => assertNoNaN(v, `${path}[${i}]`));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) assertNoNaN(v, `${path}.${k}`);
}

describe("binarise", () => {
  it("scores at or above the threshold, the verdict as is, overall below its threshold", () => {
    expect([
      binarise("score", 5, options, undefined, BUILT_IN_DECLARATIONS.tasks),
      binarise("score", 4.5, options, undefined, BUILT_IN_DECLARATIONS.tasks),
    ]).toEqual([1, 0]);
    expect([
      binarise("verdict", 1, options, undefined, BUILT_IN_DECLARATIONS.tasks),
      binarise("verdict", 0, options, undefined, BUILT_IN_DECLARATIONS.tasks),
    ]).toEqual([1, 0]);
    expect([
      binarise("overall", 59.9, options, undefined, BUILT_IN_DECLARATIONS.tasks),
      binarise("overall", 60, options, undefined, BUILT_IN_DECLARATIONS.tasks),
    ]).toEqual([1, 0]);
  });
});

describe("binaryMetrics", () => {
  it("matches a 2 × 2 table worked by hand", () => {
    // tp 2, fp 3, fn 1, tn 2: po = 4/8, pe = (5·3 + 3·5)/64 = 30/64, kappa = (32 − 30)/(64 − 30) = 1/17
    const m = binaryMetrics({ tp: 2, fp: 3, fn: 1, tn: 2 });
    expect(m.accuracy).toBe(0.5);
    expect(m.precision).toBeCloseTo(0.4, 12);
    expect(m.recall).toBeCloseTo(2 / 3, 12);
    expect(m.f1).toBeCloseTo(0.5, 12);
    expect(m.kappa).toBeCloseTo(1 / 17, 12);
  });
  it("is null where undefined", () => {
    expect(binaryMetrics({ tp: 0, fp: 0, fn: 0, tn: 0 })).toEqual({
      precision: null,
      recall: null,
      f1: null,
      accuracy: null,
      kappa: null,
    });
    // everyone said no: agreement 1, chance agreement 1 → kappa undefined; no positives → F1 undefined
    expect(binaryMetrics({ tp: 0, fp: 0, fn: 0, tn: 4 })).toMatchObject({
      accuracy: 1,
      kappa: null,
      f1: null,
      precision: null,
      recall: null,
    });
  });
});

describe("nativeBlock", () => {
  it("gives the judge and a human the kappas of cohensKappa and the alpha of their rating table, on integer and fractional scales", () => {
    const random = mulberry32(11);
    for (const [n, scale] of [
      [40, 11],
      [25, 1001],
      [3, 2],
    ] as const) {
      const judge = Float64Array.from({ length: n }, () => Math.floor(random() * scale) / (scale > 11 ? 10 : 1));
      const human = Float64Array.from({ length: n }, () => Math.floor(random() * Math.min(scale, 11)));
      for (const level of ["nominal", "ordinal", "interval", "ratio"] as const) {
        const builder = new RatingTableBuilder();
        judge.forEach((v, i) => builder.add(String(i), "judge", v, i));
        human.forEach((v, i) => builder.add(String(i), "human", v, i));
        const values = nativeBlock(judge, human, level, { ...DEFAULT_AGREEMENT_OPTIONS, iterations: 0 }).values;
        expect(values.alpha).toBe(krippendorffAlpha(builder.build(), level));
        expect(values.kappaLinear).toBe(cohensKappa(Array.from(judge), Array.from(human), "linear"));
        expect(values.kappaQuadratic).toBe(cohensKappa(Array.from(judge), Array.from(human), "quadratic"));
      }
    }
  });
});

describe("agreementReport on a hand-worked study", () => {
  const report = agreementReport(study(), options);

  it("counts what was reviewed", () => {
    expect(report.summary).toEqual({
      videos: 10,
      judgeItems: 10,
      reviewedItems: 9,
      judgments: 16,
      reviewedVideos: 9,
      multiReviewedItems: 7,
      reviewers: 2,
    });
    expect(report.reviewers.map((r) => r.id)).toEqual(["A", "B"]);
    assertNoNaN(report);
  });

  it("judge vs consensus, binarised over every target", () => {
    const b = report.humanVsJudge.consensus.binary;
    // scores tp1 tn1 fp1 fn1 + verdicts tp1 fp1 tn1 (v3 tied) + overall fp1
    expect(b.confusion).toEqual({ tp: 2, fp: 3, fn: 1, tn: 2 });
    expect(b.n).toBe(8);
    expect(b.values.accuracy).toBe(0.5);
    expect(b.values.kappa).toBeCloseTo(1 / 17, 12);
    expect(b.values.f1).toBeCloseTo(0.5, 12);
    const [low, high] = b.ci.kappa!;
    expect(low).toBeLessThanOrEqual(b.values.kappa!);
    expect(high).toBeGreaterThanOrEqual(b.values.kappa!);
  });

  it("judge vs consensus on the 0–10 scale", () => {
    const s = report.humanVsJudge.consensus.native.score;
    expect(s.n).toBe(4);
    // |8−8| + |2−2| + |6−2| + |3−6.5| = 7.5 → 1.875; RMSE √((16 + 12.25)/4)
    expect(s.values.mae).toBeCloseTo(1.875, 12);
    expect(s.values.rmse).toBeCloseTo(Math.sqrt(28.25 / 4), 12);
    // ranks judge [4,1,3,2], consensus [4,1.5,1.5,3]: Σdx·dy = 3, Σdx² = 5, Σdy² = 4.5 → 3/√22.5
    expect(s.values.spearman).toBeCloseTo(3 / Math.sqrt(22.5), 12);
    // a single pair: nothing varies, so correlations are undefined, errors are not
    const o = report.humanVsJudge.consensus.native.overall!;
    expect(o.n).toBe(1);
    expect(o.values.mae).toBe(15);
    expect(o.values.pearson).toBeNull();
  });

  it("each reviewer vs the judge", () => {
    const ann = report.humanVsJudge.reviewers.find((r) => r.reviewerId === "A")!;
    // scores: |8−9| + |2−1| + |6−2| + |3−7| = 10 → 2.5
    expect(ann.native.score.values.mae).toBeCloseTo(2.5, 12);
    // verdicts for Ann: v1 tp, v2 fp, v3 fn, v4 tn; with scores tp1 tn1 fp1 fn1 and overall fp1
    expect(ann.binary.confusion).toEqual({ tp: 2, fp: 3, fn: 2, tn: 2 });
    const bob = report.humanVsJudge.reviewers.find((r) => r.reviewerId === "B")!;
    expect(bob.n).toBe(7);
  });

  it("reviewers among themselves", () => {
    const h = report.humanVsHuman;
    expect(h.items).toBe(7);
    // binarised: 6 of 7 co-rated targets agree (only v3 differs)
    expect(h.binary.values.percentAgreement).toBeCloseTo(6 / 7, 12);
    // Fleiss: P̄ = 6/7, category shares 7/14 each → P̄e = 1/2 → (6/7 − 1/2)/(1/2) = 5/7
    expect(h.binary.values.fleiss).toBeCloseTo(5 / 7, 12);
    // Krippendorff nominal: n = 14 pairable values, 7 zeros and 7 ones, 2 off-diagonal coincidences → 1 − 13·2/(2·7·7) = 72/98
    expect(h.binary.values.alpha).toBeCloseTo(72 / 98, 12);
    expect(h.pairs).toHaveLength(1);
    const pair = h.pairs[0]!;
    expect([pair.a, pair.b, pair.binary.n]).toEqual(["A", "B", 7]);
    // A as rows: tp 3, tn 3, fn 1 → po 6/7, pe (3·4 + 4·3)/49 → kappa 18/25
    expect(pair.binary.values.kappa).toBeCloseTo(18 / 25, 12);
    // scores A [9,1,2,7] vs B [7,3,2,6]: MAE 5/4
    expect(pair.score.values.mae).toBeCloseTo(1.25, 12);
  });

  it("confusion views with the runs and videos behind each cell", () => {
    const v = report.confusion.verdict!;
    expect(v.n).toBe(3);
    expect(v.cells.map((c) => [c.human, c.judge, c.count])).toEqual([
      [1, 1, 1],
      [1, 0, 0],
      [0, 1, 1],
      [0, 0, 1],
    ]);
    expect(v.cells[0]!.runs).toEqual([{ runId: "r1", count: 1 }]);
    expect(v.cells[0]!.videos).toEqual([{ runId: "r1", videoId: "vid5" }]);
    expect(report.confusion.all.cells.map((c) => c.count)).toEqual([2, 1, 3, 2]);
  });

  it("sweeps thresholds of the judge's per-video values against the verdict consensus", () => {
    const I = report.sweep.find((c) => c.metric === "I")!;
    expect(I.n).toBe(3); // v3's tie is no consensus
    // I = 7 (yes), 4 (no), 1 (no): any threshold in (4, 7] separates them; the first is 4.5
    expect(I.best).toMatchObject({ threshold: 4.5, f1: 1, accuracy: 1, kappa: 1 });
    const at0 = I.points.find((p) => p.threshold === 0)!;
    expect(at0).toMatchObject({ tp: 1, fp: 2, fn: 0, tn: 0, recall: 1, f1: 0.5 });
    expect(at0.precision).toBeCloseTo(1 / 3, 12);
    expect(I.points.find((p) => p.threshold === 7.5)).toMatchObject({ tp: 0, fn: 1, f1: 0, precision: null });
    const overall = report.sweep.find((c) => c.metric === "overall")!;
    expect(overall.rule).toBe("<");
    // overall 40 (yes), 70, 90: "below t" separates them for t in (40, 70]; first 45
    expect(overall.best?.threshold).toBe(45);
    const S = report.sweep.find((c) => c.metric === "S")!;
    expect([S.n, S.best]).toEqual([0, null]);
  });

  it("breaks down by category, dimension, model, endpoint and prompt version with intervals", () => {
    const s1 = report.breakdowns.category.find((g) => g.key === "s1")!;
    expect(s1.items).toBe(4);
    expect(s1.judge.values).toMatchObject({ accuracy: 0.5, kappa: 0, f1: 0.5, mae: 1.875 });
    expect(s1.judge.ci.accuracy).not.toBeNull();
    expect(s1.link).toEqual({ runId: "r1", category: "s1" });
    expect(report.breakdowns.category.map((g) => g.key)).toEqual(["s1", "verdict", "overall"]);
    const verdict = report.breakdowns.category.find((g) => g.key === "verdict")!;
    expect(verdict.judge.values.accuracy).toBeCloseTo(2 / 3, 12);
    expect(verdict.judge.values.mae).toBe(1 / 3); // 0/1 scale: one of three differs

    expect(report.breakdowns.dimension.map((g) => [g.key, g.items])).toEqual([
      ["Mechanics", 9],
      ["Thermotics", 1],
    ]);
    expect(report.breakdowns.model.map((g) => [g.key, g.items])).toEqual([
      ["Kling", 1],
      ["Sora", 8],
    ]);
    expect(report.breakdowns.endpoint).toMatchObject([{ key: "e1", label: "gpt", items: 9, link: { runId: "r1" } }]);
    expect(report.breakdowns.promptVersion).toMatchObject([{ label: "aaaaaaaa", items: 9 }]);
    // a mixed-scale group has no native statistics
    expect(report.breakdowns.endpoint[0]!.judge.values.spearman).toBeNull();
  });

  it("plots scores only, and is the same on every run (seeded)", () => {
    expect(report.scatter.total).toBe(4);
    expect(report.scatter.points.map((p) => [p.judge, p.human])).toEqual([
      [8, 8],
      [2, 2],
      [6, 2],
      [3, 6.5],
    ]);
    expect(agreementReport(study(), options)).toEqual(report);
  });
});

describe("agreementReport edge cases", () => {
  it("no human judgments: counts and nulls, no NaN", () => {
    const input = study();
    input.items = input.items.map((i) => ({ ...i, ratings: [] }));
    const report = agreementReport(input, options);
    expect(report.summary).toMatchObject({ reviewedItems: 0, judgments: 0, reviewers: 0 });
    expect(report.humanVsJudge.consensus.binary.values).toEqual({
      precision: null,
      recall: null,
      f1: null,
      accuracy: null,
      kappa: null,
    });
    expect(report.humanVsJudge.consensus.native.score.values.spearman).toBeNull();
    expect(report.humanVsHuman.binary.values.alpha).toBeNull();
    expect(report.sweep.every((c) => c.best === null)).toBe(true);
    expect(report.breakdowns.category).toEqual([]);
    assertNoNaN(report);
  });

  it("one reviewer: compared with the judge, but no agreement among reviewers", () => {
    const input = study();
    input.items = input.items.map((i) => ({ ...i, ratings: i.ratings.filter((r) => r.reviewerId === "A") }));
    const report = agreementReport(input, options);
    expect(report.humanVsHuman).toMatchObject({ items: 0, pairs: [] });
    expect(report.humanVsHuman.binary.values).toEqual({ alpha: null, fleiss: null, percentAgreement: null });
    expect(report.humanVsJudge.consensus.binary.n).toBe(9);
    assertNoNaN(report);
  });

  it("constant ratings: correlations and kappas undefined, errors zero", () => {
    const items = [1, 2, 3].map(() => item({ targetType: "score", judge: 5 }, { A: 5, B: 5 }));
    const report = agreementReport({ ...study(), items }, options);
    const s = report.humanVsJudge.consensus.native.score;
    expect(s.values).toMatchObject({
      spearman: null,
      pearson: null,
      kendallTauB: null,
      kappaQuadratic: null,
      mae: 0,
      rmse: 0,
    });
    expect(report.humanVsJudge.consensus.binary.values).toMatchObject({ accuracy: 1, kappa: null, f1: 1 });
    expect(report.humanVsHuman.native.score.values).toEqual({ alpha: null, fleiss: null, percentAgreement: 1 });
    expect(s.ci.spearman).toBeNull();
    assertNoNaN(report);
  });
});
