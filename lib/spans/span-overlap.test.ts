import { describe, expect, it } from "vitest";
import { frameIoU, labelDisagreement, mergedRanges } from "./span-overlap";

const span = (startFrame: number, endFrame: number) => ({ startFrame, endFrame });

describe("span overlap", () => {
  it("merges overlapping and touching spans of one rater", () => {
    const ranges = mergedRanges([span(10, 12), span(0, 3), span(2, 5), span(6, 6)]);
    expect(ranges.map((range) => [range.startFrame, range.endFrame])).toEqual([
      [0, 6],
      [10, 12],
    ]);
    // Each range keeps the spans it joins, in frame order.
    expect(ranges.map((range) => range.spans)).toEqual([[span(0, 3), span(2, 5), span(6, 6)], [span(10, 12)]]);
  });

  it("computes the frame IoU by hand: frames 0–9 against 5–14 share 5 of 15", () => {
    expect(frameIoU([span(0, 9)], [span(5, 14)])).toBeCloseTo(5 / 15, 12);
    // Two spans against one: {0–2, 8–9} and {1–8}: shared 1,2,8 (3) of 0–9 (10).
    expect(frameIoU([span(0, 2), span(8, 9)], [span(1, 8)])).toBeCloseTo(3 / 10, 12);
    expect(frameIoU([span(0, 0)], [span(1, 1)])).toBe(0);
    expect(frameIoU([], [])).toBe(1);
    expect(frameIoU([span(3, 4)], [])).toBe(0);
  });

  it("ranks the least-overlapping pair, and a judge's label no reviewer marks, as disagreement", () => {
    const ann = { rater: "ann", judge: false, spans: [span(0, 9)] };
    const bob = { rater: "bob", judge: false, spans: [span(5, 14)] };
    const cat = { rater: "cat", judge: false, spans: [span(0, 9)] };
    expect(labelDisagreement([ann, cat])).toEqual({ disagreement: 0, reason: "agree", pair: ["ann", "cat"] });
    const d = labelDisagreement([ann, bob, cat]);
    expect(d.reason).toBe("overlap");
    expect(d.disagreement).toBeCloseTo(1 - 5 / 15, 12);
    expect(d.pair).toEqual(["ann", "bob"]);
    const judge = { rater: "run:r1", judge: true, spans: [span(2, 3)] };
    expect(labelDisagreement([judge])).toEqual({ disagreement: 1, reason: "judge_only", pair: null });
    expect(labelDisagreement([judge, { ...ann, spans: [] }]).reason).toBe("judge_only");
    expect(labelDisagreement([ann])).toEqual({ disagreement: 0, reason: "agree", pair: null });
  });
});
