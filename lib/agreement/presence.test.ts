import { describe, expect, it } from "vitest";
import { HALLUCINATION_TASK } from "../tasks/hallucination/task";
import { reportCsv } from "./report-csv";
import { agreementReport } from "./report/agreement-report";
import { type AgreementInput, type AgreementItem, DEFAULT_AGREEMENT_OPTIONS } from "./types";

/*
 * Presence labels against the judge's graded scores, worked out on paper. "L" is a label set, "A" a live
 * reviewer (the consensus is A's alone: label sets stay out of it). The judge's presence of a category is
 * "its highest score of it ≥ t".
 *
 *   item  category  judge max  L  A
 *   p1    s1        8          1  1
 *   p2    s2        3          1  0
 *   p3    d1        6          0  0
 *   p4    d2        0          0  0
 *   p5    s3        — (none)   1  –   the judge gave no score: left out
 *   p6    s7        5          1  1
 *
 * vs L at t = 5: judge 1,0,1,0,1 → tp 2 (p1,p6) fn 1 (p2) fp 1 (p3) tn 1 (p4); precision = recall = F1 = 2/3;
 *   accuracy 3/5; κ: pe = (3·3 + 2·2)/25 = 13/25, κ = (15/25 − 13/25)/(12/25) = 1/6.
 * vs L at t = 1, 2, 3: judge 1,1,1,0,1 → tp 3 fp 1 fn 0 tn 1; F1 = 6/7; pe = (4·3 + 1·2)/25 = 14/25, κ = (20−14)/(25−14) = 6/11.
 * vs L at t = 0: all present → tp 3 fp 2; F1 = 6/8; κ = 0.   t = 6: tp 1 fp 1 fn 2 tn 1, F1 = 2/5.
 * vs L at t = 9, 10: nothing present → tp 0, precision undefined, F1 0.   Best F1: 6/7 at t = 1 (the lowest of the tie).
 * vs A (= the consensus) at t = 5: tp 2 (p1,p6) fp 1 (p3) fn 0 tn 2 (p2,p4).
 * A vs L on presence (p1,p2,p3,p4,p6): agree on 4 of 5; A as rows: tp 2, fp 1, tn 2; pe = (3·2 + 2·3)/25 = 12/25, κ = (20−12)/(25−12) = 8/13.
 */
const L = "labelset:set1";
let seq = 0;
function presence(category: string, judgeScore: number | null, ratings: Record<string, number>): AgreementItem {
  seq++;
  return {
    taskId: "hallucination",
    key: `r1|p${seq}`,
    targetKey: `hallucination|v:vid${seq}|${category}`,
    targetType: "presence",
    runId: "r1",
    videoId: `vid${seq}`,
    category,
    stepId: null,
    scopeIndex: null,
    judge: null,
    judgeScore,
    dimensions: [],
    model: "Sora",
    endpointId: "e1",
    promptVersion: "aaaa",
    ratings: Object.entries(ratings).map(([reviewerId, value]) => ({ reviewerId, value })),
  };
}

function study(): AgreementInput {
  seq = 0;
  return {
    items: [
      presence("s1", 8, { [L]: 1, A: 1 }),
      presence("s2", 3, { [L]: 1, A: 0 }),
      presence("d1", 6, { [L]: 0, A: 0 }),
      presence("d2", 0, { [L]: 0, A: 0 }),
      presence("s3", null, { [L]: 1 }),
      presence("s7", 5, { [L]: 1, A: 1 }),
    ],
    tasks: [HALLUCINATION_TASK],
    reviewers: [
      { id: "A", label: "Ann" },
      { id: L, label: "T2VHaluBench", labelSet: { id: "set1", name: "T2VHaluBench", annotator: null } },
    ],
    runs: [{ id: "r1", endpointId: "e1", endpointName: "judge", model: "m", createdAt: "2026-01-01T00:00:00.000Z" }],
    videoCount: 6,
    judgeItemCount: 6,
  };
}

const options = { ...DEFAULT_AGREEMENT_OPTIONS, iterations: 50 };
const close = (value: number | null | undefined, expected: number) => expect(value).toBeCloseTo(expected, 10);

describe("presence labels against graded scores (threshold mapping)", () => {
  it("sweeps t = 0..10 against a label set with hand-worked κ, precision, recall, F1 and n, and marks the declared t", () => {
    const report = agreementReport(study(), options);
    expect(report.presence).toHaveLength(1);
    const [p] = report.presence;
    expect(p!).toMatchObject({
      taskId: "hallucination",
      threshold: 5,
      defaultThreshold: 5,
      thresholds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    });
    const curve = p!.curves.find((c) => c.human === L)!;
    expect(curve.labelSet).toEqual({ id: "set1", name: "T2VHaluBench", annotator: null });
    expect(curve.n).toBe(5);
    const at = (t: number) => curve.points.find((x) => x.threshold === t)!;
    expect(at(5)).toMatchObject({ tp: 2, fp: 1, fn: 1, tn: 1 });
    close(at(5).precision, 2 / 3);
    close(at(5).recall, 2 / 3);
    close(at(5).f1, 2 / 3);
    close(at(5).accuracy, 3 / 5);
    close(at(5).kappa, 1 / 6);
    for (const t of [1, 2, 3]) {
      expect(at(t)).toMatchObject({ tp: 3, fp: 1, fn: 0, tn: 1 });
      close(at(t).f1, 6 / 7);
      close(at(t).kappa, 6 / 11);
    }
    expect(at(0)).toMatchObject({ tp: 3, fp: 2, fn: 0, tn: 0 });
    close(at(0).f1, 6 / 8);
    close(at(0).kappa, 0);
    expect(at(6)).toMatchObject({ tp: 1, fp: 1, fn: 2, tn: 1 });
    close(at(6).f1, 2 / 5);
    expect(at(10)).toMatchObject({ tp: 0, fp: 0, fn: 3, tn: 2, precision: null, f1: 0 });
    expect(curve.chosen).toEqual(at(5));
    expect(curve.best!.threshold).toBe(1);
    close(curve.best!.f1, 6 / 7);
  });

  it("compares the judge's derived presence with the consensus at the chosen t, and a request's t moves every statistic", () => {
    const report = agreementReport(study(), options);
    expect(report.confusionKinds.map((k) => k.id)).toContain("presence");
    const consensus = report.presence[0]!.curves.find((c) => c.human === "consensus")!;
    expect(consensus.n).toBe(5);
    expect(consensus.chosen).toMatchObject({ tp: 2, fp: 1, fn: 0, tn: 2 });
    const cells = Object.fromEntries(report.confusion.presence!.cells.map((c) => [`${c.human}${c.judge}`, c.count]));
    expect(cells).toEqual({ "11": 2, "01": 1, "10": 0, "00": 2 });
    expect(report.humanVsJudge.consensus.native.presence!.n).toBe(5);

    const at3 = agreementReport(study(), { ...options, presenceThreshold: 3 });
    expect(at3.presence[0]!.threshold).toBe(3);
    // p2 (judge 3, A absent) now reads as the judge saying present.
    const cells3 = Object.fromEntries(at3.confusion.presence!.cells.map((c) => [`${c.human}${c.judge}`, c.count]));
    expect(cells3).toEqual({ "11": 2, "01": 2, "10": 0, "00": 1 });
    expect(at3.presence[0]!.curves.find((c) => c.human === L)!.chosen).toMatchObject({ tp: 3, fp: 1, fn: 0, tn: 1 });
  });

  it("compares a reviewer with a label set on presence, and the CSV carries the chosen t and the whole sweep", () => {
    const report = agreementReport(study(), options);
    const pair = report.humanVsHuman.pairs.find((x) => [x.a, x.b].sort().join() === ["A", L].sort().join())!;
    expect(pair.presence.n).toBe(5);
    close(pair.presence.values.percentAgreement, 4 / 5);
    close(pair.presence.values.kappa, 8 / 13);

    const csv = reportCsv(report).split("\r\n");
    expect(csv).toContain("summary,all,hallucination,presence_threshold,5,,,");
    const sweepRows = csv.filter((line) => line.startsWith("presence_sweep,hallucination presence vs T2VHaluBench,"));
    // 11 thresholds × 9 statistics, plus the chosen t and the best t and F1.
    expect(sweepRows).toHaveLength(11 * 9 + 3);
    expect(sweepRows).toContain("presence_sweep,hallucination presence vs T2VHaluBench,5,tp,2,,,5");
    expect(sweepRows).toContain("presence_sweep,hallucination presence vs T2VHaluBench,best,threshold,1,,,5");
  });
});
