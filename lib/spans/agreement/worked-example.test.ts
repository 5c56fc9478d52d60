/**
 * The worked example of docs/guide/spans.md, "Agreement on where": every number the guide computes by hand.
 */
import { describe, expect, it } from "vitest";
import { frameAlpha, frameKappa } from "./frame-agreement";
import { greedyMatch, spanAgreement } from "../../../testkit/spans/span-agreement";
import type { SpanAgreementInput, SpanAgreementRow } from "./types";

const box = (frame: number, x: number) => ({ frame, x, y: 0, w: 0.5, h: 0.5, enabled: true });
const span = (
  id: string,
  videoId: string,
  authorId: string,
  startFrame: number,
  endFrame: number,
  boxes = [] as SpanAgreementRow["boxes"],
) => ({
  id,
  videoId,
  authorId,
  label: "pass-through",
  startFrame,
  endFrame,
  boxes,
});

// Ann (the reference) marks 3 spans, Ben (the prediction) 4.
const a1 = span("a1", "v1", "ann", 10, 17);
const a2 = span("a2", "v1", "ann", 24, 29, [box(24, 0), box(28, 0.25)]);
const a3 = span("a3", "v2", "ann", 0, 9);
const b1 = span("b1", "v1", "ben", 6, 11);
const b2 = span("b2", "v1", "ben", 16, 21);
const b3 = span("b3", "v1", "ben", 23, 29, [box(26, 0.25)]);
const b4 = span("b4", "v2", "ben", 2, 7);

const input: SpanAgreementInput = {
  labels: [{ id: "pass-through", label: "Passes through" }],
  raters: [
    { id: "ann", kind: "reviewer", label: "Ann" },
    { id: "ben", kind: "reviewer", label: "Ben" },
  ],
  coverage: new Map([
    ["ann", new Set(["v1", "v2"])],
    ["ben", new Set(["v1", "v2"])],
  ]),
  frameCounts: new Map([
    ["v1", 30],
    ["v2", 20],
  ]),
  spans: [a1, a2, a3, b1, b2, b3, b4],
};

describe("the worked example of agreement on where", () => {
  it("matches a2–b3 (6/7), then a1–b1 over a1–b2 (both 1/6: b1 starts earlier), and a3–b4 (6/10)", () => {
    const v1 = greedyMatch([a1, a2], [b1, b2, b3]);
    expect(v1.map((p) => [p.reference.id, p.prediction.id, p.iou])).toEqual([
      ["a2", "b3", 6 / 7],
      ["a1", "b1", 1 / 6],
    ]);
    expect(greedyMatch([a3], [b4]).map((p) => [p.reference.id, p.prediction.id, p.iou])).toEqual([["a3", "b4", 0.6]]);
  });

  const result = spanAgreement(input);
  const pair = result.labels[0]!.comparisons[0]!;

  it("gives P, R and F1 at each threshold", () => {
    expect(result.labels).toHaveLength(1);
    expect(result.labels[0]!.comparisons).toHaveLength(1);
    expect(pair).toMatchObject({ kind: "people", referenceLabel: "Ann", predictionLabel: "Ben", videos: 2 });
    expect(pair.referenceSpans).toBe(3);
    expect(pair.predictionSpans).toBe(4);
    const hand = [
      { threshold: 0.1, matched: 3, precision: 3 / 4, recall: 1, f1: 6 / 7 },
      { threshold: 0.3, matched: 2, precision: 2 / 4, recall: 2 / 3, f1: 4 / 7 },
      { threshold: 0.5, matched: 2, precision: 2 / 4, recall: 2 / 3, f1: 4 / 7 },
      { threshold: 0.7, matched: 1, precision: 1 / 4, recall: 1 / 3, f1: 2 / 7 },
    ];
    expect(
      pair.thresholds.map((t) => ({
        threshold: t.threshold,
        matched: t.matched,
        precision: t.precision.value,
        recall: t.recall.value,
        f1: t.f1.value,
      })),
    ).toEqual(hand);
  });

  it("gives the mean IoU of the pairs matched at 0.1: 341/630", () => {
    expect(pair.meanIou.value).toBeCloseTo(341 / 630, 12);
  });

  it("gives the frame table and its κ = 0.32 and α = 16/49", () => {
    expect(pair.frames).toMatchObject({ both: 16, referenceOnly: 8, predictionOnly: 9, neither: 17 });
    expect(pair.frames.kappa.value).toBeCloseTo(0.32, 12);
    expect(pair.frames.alpha.value).toBeCloseTo(16 / 49, 12);
    expect(frameKappa({ both: 16, referenceOnly: 8, predictionOnly: 9, neither: 17 })).toBeCloseTo(0.32, 12);
    expect(frameAlpha({ both: 16, referenceOnly: 8, predictionOnly: 9, neither: 17 })).toBeCloseTo(16 / 49, 12);
  });

  it("gives the box IoU of a2–b3 over frames 26–29: 38/45", () => {
    expect(pair.boxIou.pairs).toBe(1);
    expect(pair.boxIou.value).toBeCloseTo(38 / 45, 12);
  });

  it("gives seeded intervals over the two videos, the same on every run", () => {
    const again = spanAgreement(input).labels[0]!.comparisons[0]!;
    expect(again).toEqual(pair);
    // Two videos: each resample is v1 twice, v2 twice, or both; F1 at 0.1 is then 4/5, 1 or 6/7.
    const ci = pair.thresholds[0]!.f1.ci!;
    expect(ci[0]).toBeCloseTo(0.8, 12);
    expect(ci[1]).toBe(1);
  });
});
