/**
 * Span agreement per generator on the guide's worked example (docs/guide/spans.md), its two videos made by two
 * generators: Sora made v1 (30 frames), Kling v2 (20 frames).
 *
 * Sora, v1: Ann marks a1 10–17 and a2 24–29, Ben b1 6–11, b2 16–21, b3 23–29. a2–b3 match at 6/7, a1–b1 at 1/6, b2
 * stays unmatched. F1 = 2·matched / (2 + 3): 2·2/5 = 0.8 at IoU ≥ 0.1; 2·1/5 = 0.4 at 0.3, 0.5 and 0.7. Frames: both
 * 10, Ann only 4, Ben only 9, neither 7 (N = 30): pₒ = 17/30, pₑ = (14·19 + 16·11)/900 = 442/900, so
 * κ = (510 − 442)/(900 − 442) = 68/458 = 34/229 ≈ 0.1485.
 *
 * Kling, v2: Ann a3 0–9, Ben b4 2–7, IoU 6/10. F1 = 1 at 0.1, 0.3 and 0.5; 0 at 0.7. Frames: both 6, Ann only 4,
 * neither 10 (N = 20): pₒ = 0.8, pₑ = (10·6 + 10·14)/400 = 0.5, κ = 0.6.
 */
import { describe, expect, it } from "vitest";
import { parseCsvTable } from "../../import/csv";
import { spanAgreement, spanAgreementByGenerator } from "../../../testkit/spans/span-agreement";
import { spanAgreementCsv } from "./span-agreement-csv";
import type { SpanAgreementInput } from "./types";

const span = (id: string, videoId: string, authorId: string, startFrame: number, endFrame: number) => ({
  id,
  videoId,
  authorId,
  label: "pass-through",
  startFrame,
  endFrame,
  boxes: [],
});

const input: SpanAgreementInput = {
  labels: [{ id: "pass-through", label: "Passes through" }],
  raters: [
    { id: "ann", kind: "reviewer", label: "Ann" },
    { id: "ben", kind: "reviewer", label: "Ben" },
  ],
  coverage: new Map([
    ["ann", new Set(["v1", "v2", "v3"])],
    ["ben", new Set(["v1", "v2", "v3"])],
  ]),
  frameCounts: new Map([
    ["v1", 30],
    ["v2", 20],
    ["v3", 10],
  ]),
  spans: [
    span("a1", "v1", "ann", 10, 17),
    span("a2", "v1", "ann", 24, 29),
    span("a3", "v2", "ann", 0, 9),
    span("b1", "v1", "ben", 6, 11),
    span("b2", "v1", "ben", 16, 21),
    span("b3", "v1", "ben", 23, 29),
    span("b4", "v2", "ben", 2, 7),
  ],
};

describe("span agreement per generator", () => {
  const generators = new Map<string, string | null>([
    ["v1", "Sora"],
    ["v2", "Kling"],
    ["v3", null],
  ]);
  const report = spanAgreementByGenerator(input, generators, { iterations: 200 });
  const f1s = (generator: string | null) =>
    report
      .find((g) => g.generator === generator)!
      .labels[0]!.comparisons[0]!.thresholds.map((t) => [t.threshold, t.matched, t.f1.value]);

  it("reports each generator's videos alone, in natural order, the videos without a generator last", () => {
    expect(report.map((g) => [g.generator, g.videos, g.videosLeftOut])).toEqual([
      ["Kling", 1, 0],
      ["Sora", 1, 0],
      [null, 1, 0],
    ]);
    // v3 has no span: a generator whose videos nobody marked has no label to compare.
    expect(report[2]!.labels).toEqual([]);
  });

  it("matches, counts and scores each generator's spans as the guide computes them", () => {
    expect(f1s("Sora")).toEqual([
      [0.1, 2, 0.8],
      [0.3, 1, 0.4],
      [0.5, 1, 0.4],
      [0.7, 1, 0.4],
    ]);
    expect(f1s("Kling")).toEqual([
      [0.1, 1, 1],
      [0.3, 1, 1],
      [0.5, 1, 1],
      [0.7, 0, 0],
    ]);
    const kappa = (generator: string) =>
      report.find((g) => g.generator === generator)!.labels[0]!.comparisons[0]!.frames;
    expect(kappa("Sora")).toMatchObject({ both: 10, referenceOnly: 4, predictionOnly: 9, neither: 7 });
    expect(kappa("Sora").kappa.value).toBeCloseTo(34 / 229, 12);
    expect(kappa("Kling")).toMatchObject({ both: 6, referenceOnly: 4, predictionOnly: 0, neither: 10 });
    expect(kappa("Kling").kappa.value).toBeCloseTo(0.6, 12);
  });

  it("exports each generator's rows after the whole report's, naming the generator", () => {
    const csv = spanAgreementCsv({
      task: "project",
      runId: null,
      label: null,
      ...spanAgreement(input, { iterations: 200 }),
      byGenerator: report,
    });
    const table = parseCsvTable(csv);
    if (!table.ok) throw new Error(table.error);
    const f1 = table.rows
      .map((r) => r.values)
      .filter((v) => v.get("statistic") === "f1" && v.get("iou_threshold") === "0.1")
      .map((v) => [v.get("generator"), v.get("value")]);
    // The whole report (both videos: 3 matched of 3 + 4 spans, 6/7), then Kling, then Sora.
    expect(f1).toEqual([
      ["", String(6 / 7)],
      ["Kling", "1"],
      ["Sora", "0.8"],
    ]);
  });

  it("gives the whole report as the one generator's when every video has that generator", () => {
    const sora = new Map(["v1", "v2", "v3"].map((v) => [v, "Sora"]));
    const whole = spanAgreement(input, { iterations: 200 });
    const [reused] = spanAgreementByGenerator(input, sora, { iterations: 200 }, whole);
    const [computed] = spanAgreementByGenerator(input, sora, { iterations: 200 });
    expect(reused!.labels).toBe(whole.labels);
    expect(computed).toEqual(reused);
    expect(computed).toMatchObject({ generator: "Sora", videos: 3, videosLeftOut: 0 });
  });
});
