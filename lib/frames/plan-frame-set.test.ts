import { describe, expect, it } from "vitest";
import { validateManifest } from "./frame-set-parameters";
import { planFrameSet, type SampledFrame, uniformSampleTimestamps } from "./plan-frame-set";

describe("uniformSampleTimestamps", () => {
  it("samples k / fps from 0 while before the end", () => {
    expect(uniformSampleTimestamps(2, 4)).toEqual([0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75]);
    expect(uniformSampleTimestamps(2.01, 4)).toHaveLength(9);
    expect(uniformSampleTimestamps(2.01, 4).at(-1)).toBe(2);
    expect(uniformSampleTimestamps(1, 0.25)).toEqual([0]);
  });

  it("does not add a frame for floating-point noise", () => {
    // 2.2 · 25 = 55.00000000000001
    expect(uniformSampleTimestamps(2.2, 25)).toHaveLength(55);
    expect(uniformSampleTimestamps(8.3, 30)).toHaveLength(249);
  });

  it("gives nothing for an unknown or empty duration and rejects a bad rate", () => {
    expect(uniformSampleTimestamps(0, 4)).toEqual([]);
    expect(uniformSampleTimestamps(Number.NaN, 4)).toEqual([]);
    expect(() => uniformSampleTimestamps(2, 0)).toThrow(RangeError);
  });
});

/** Three shots of eight frames each at 4 fps, drifting slowly inside each shot. */
function threeShots(): SampledFrame[] {
  const shotLevels = [0, 1, 2.5];
  return Array.from({ length: 24 }, (_, index) => ({
    timestampS: index / 4,
    features: Float32Array.from([shotLevels[Math.floor(index / 8)]! + 0.01 * (index % 8) ** 1.5, 0.3]),
  }));
}

function withNames(frames: ReturnType<typeof planFrameSet>["frames"]) {
  return frames.map((frame) => ({ ...frame, name: `${String(frame.index).padStart(5, "0")}.jpg` }));
}

describe("planFrameSet", () => {
  it("density peaks: one key frame per shot, clusters of ±neighbours", () => {
    const plan = planFrameSet({ mode: "density-peaks", keyFrames: 3 }, threeShots(), 6);
    expect(plan.keyFrameIndices).toHaveLength(3);
    expect(plan.keyFrameIndices.map((index) => Math.floor(index / 8))).toEqual([0, 1, 2]);
    for (const keyFrame of plan.keyFrameIndices) {
      const members = plan.frames.filter((frame) => frame.cluster === keyFrame).map((frame) => frame.index);
      expect(members).toEqual([keyFrame - 2, keyFrame - 1, keyFrame, keyFrame + 1, keyFrame + 2].filter((index) => index >= 0 && index < 24));
    }
    expect(plan.frames.filter((frame) => frame.isKeyFrame).map((frame) => frame.index)).toEqual(plan.keyFrameIndices);
    expect(plan.frames.map((frame) => frame.timestampS)).toEqual(threeShots().map((frame) => frame.timestampS));
    expect(validateManifest(withNames(plan.frames))).toEqual([]);
  });

  it("density peaks: picks defaultKeyFrameCount(duration) key frames when auto", () => {
    const sampled = threeShots();
    expect(planFrameSet({ mode: "density-peaks" }, sampled, 6).keyFrameIndices).toHaveLength(3);
    expect(planFrameSet({ mode: "density-peaks" }, sampled, 10).keyFrameIndices).toHaveLength(5);
    expect(planFrameSet({ mode: "density-peaks", neighbours: 0 }, sampled, 6).frames.filter((frame) => frame.cluster !== null)).toHaveLength(3);
  });

  it("scene change: converts the minimum gap to sampled frames", () => {
    const sampled = threeShots();
    expect(planFrameSet({ mode: "scene-change" }, sampled, 6).keyFrameIndices).toEqual([0, 8, 16]);
    // 2.25 s at 4 fps = 9 frames: the bigger cut at 16 is kept, 8 is too close to 0.
    expect(planFrameSet({ mode: "scene-change", minGapS: 2.25 }, sampled, 6).keyFrameIndices).toEqual([0, 16]);
    const plan = planFrameSet({ mode: "scene-change", neighbours: 1 }, sampled, 6);
    expect(plan.frames.map((frame) => frame.cluster)).toEqual(Array.from({ length: 24 }, (_, index) => (index <= 1 ? 0 : index >= 7 && index <= 9 ? 8 : index >= 15 && index <= 17 ? 16 : null)));
    expect(validateManifest(withNames(plan.frames))).toEqual([]);
  });

  it("refuses uniform parameters: a uniform set takes frames by index (vbench-uniform.ts), not sampled times", () => {
    const sampled = threeShots();
    expect(() => planFrameSet({ mode: "uniform", count: 8 } as unknown as Parameters<typeof planFrameSet>[0], sampled, 6)).toThrow(/by index/);
  });

  it("handles no frames and rejects timestamps out of order", () => {
    expect(planFrameSet({ mode: "density-peaks" }, [], 0)).toEqual({ frames: [], keyFrameIndices: [] });
    const features = new Float32Array([0]);
    expect(() =>
      planFrameSet(
        { mode: "density-peaks" },
        [
          { timestampS: 1, features },
          { timestampS: 0.5, features },
        ],
        2,
      ),
    ).toThrow(RangeError);
    expect(() => planFrameSet({ mode: "density-peaks" }, [{ timestampS: -1, features }], 2)).toThrow(RangeError);
  });
});
