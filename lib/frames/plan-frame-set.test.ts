import { describe, expect, it } from "vitest";
import { validateManifest } from "./frame-set-parameters";
import { keyFrameSampling, planFrameSet, type SampledFrame, uniformSampleTimestamps } from "./plan-frame-set";

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

describe("keyFrameSampling", () => {
  it("takes, for each k / fps, the frame shown then, by index from the frames' times", () => {
    // 30 fps for 1 s, as ffprobe prints the times (6 decimals) and as mediabunny divides them.
    const printed = Array.from({ length: 30 }, (_, i) => Number((i / 30).toFixed(6)));
    const exact = Array.from({ length: 30 }, (_, i) => i / 30);
    const fromPrinted = keyFrameSampling(printed, 4);
    expect(fromPrinted.durationS).toBeCloseTo(1, 6);
    // t = 0.25 s is 7.5 frames in: frame 7; t = 0.5 s is frame 15's start exactly: frame 15.
    expect(fromPrinted.samples).toEqual([
      { timestampS: 0, frameIndex: 0 },
      { timestampS: 0.25, frameIndex: 7 },
      { timestampS: 0.5, frameIndex: 15 },
      { timestampS: 0.75, frameIndex: 22 },
    ]);
    expect(keyFrameSampling(exact, 4)).toEqual(fromPrinted);
  });

  it("measures from the first frame, so a stream starting late samples the same frames", () => {
    const late = Array.from({ length: 30 }, (_, i) => 1.4 + i / 30);
    expect(keyFrameSampling(late, 4).samples.map((sample) => sample.frameIndex)).toEqual([0, 7, 15, 22]);
  });

  it("repeats a frame when sampling faster than the video, and samples a one-frame video once", () => {
    expect(keyFrameSampling([0, 0.5, 1], 4).samples.map((sample) => sample.frameIndex)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(keyFrameSampling([3], 4)).toEqual({ durationS: 0, samples: [{ timestampS: 0, frameIndex: 0 }] });
  });

  it("rejects no frames, bad times and times out of order", () => {
    expect(() => keyFrameSampling([], 4)).toThrow(RangeError);
    expect(() => keyFrameSampling([0, Number.NaN], 4)).toThrow(RangeError);
    expect(() => keyFrameSampling([0, 0.2, 0.1], 4)).toThrow(RangeError);
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
      expect(members).toEqual(
        [keyFrame - 2, keyFrame - 1, keyFrame, keyFrame + 1, keyFrame + 2].filter((index) => index >= 0 && index < 24),
      );
    }
    expect(plan.frames.filter((frame) => frame.isKeyFrame).map((frame) => frame.index)).toEqual(plan.keyFrameIndices);
    expect(plan.frames.map((frame) => frame.timestampS)).toEqual(threeShots().map((frame) => frame.timestampS));
    expect(validateManifest(withNames(plan.frames))).toEqual([]);
  });

  it("density peaks: picks defaultKeyFrameCount(duration) key frames when auto", () => {
    const sampled = threeShots();
    expect(planFrameSet({ mode: "density-peaks" }, sampled, 6).keyFrameIndices).toHaveLength(3);
    expect(planFrameSet({ mode: "density-peaks" }, sampled, 10).keyFrameIndices).toHaveLength(5);
    expect(
      planFrameSet({ mode: "density-peaks", neighbours: 0 }, sampled, 6).frames.filter(
        (frame) => frame.cluster !== null,
      ),
    ).toHaveLength(3);
  });

  it("scene change: converts the minimum gap to sampled frames", () => {
    const sampled = threeShots();
    expect(planFrameSet({ mode: "scene-change" }, sampled, 6).keyFrameIndices).toEqual([0, 8, 16]);
    // 2.25 s at 4 fps = 9 frames: the bigger cut at 16 is kept, 8 is too close to 0.
    expect(planFrameSet({ mode: "scene-change", minGapS: 2.25 }, sampled, 6).keyFrameIndices).toEqual([0, 16]);
    const plan = planFrameSet({ mode: "scene-change", neighbours: 1 }, sampled, 6);
    expect(plan.frames.map((frame) => frame.cluster)).toEqual(
      Array.from({ length: 24 }, (_, index) =>
        index <= 1 ? 0 : index >= 7 && index <= 9 ? 8 : index >= 15 && index <= 17 ? 16 : null,
      ),
    );
    expect(validateManifest(withNames(plan.frames))).toEqual([]);
  });

  it("refuses uniform parameters: a uniform set takes frames by index (vbench-uniform.ts), not sampled times", () => {
    const sampled = threeShots();
    expect(() =>
      planFrameSet({ mode: "uniform", count: 8 } as unknown as Parameters<typeof planFrameSet>[0], sampled, 6),
    ).toThrow(/by index/);
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
