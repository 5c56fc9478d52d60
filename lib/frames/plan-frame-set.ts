import { buildClusters } from "./build-clusters";
import { type FrameSetParametersInput, normaliseFrameSetParameters } from "./frame-set-parameters";
import { defaultKeyFrameCount, selectKeyFramesDensityPeaks, selectSceneChangeKeyFrames } from "./select-key-frames";

/**
 * Timestamps for uniform sampling at `fps`: t_k = k / fps for every k with t_k < durationS, i.e.
 * ceil(durationS·fps) frames starting at 0. This matches ffmpeg's `fps=F:round=up` on a stream starting
 * at 0: its output frame k is stamped k/F and shows the last input frame with pts ≤ k/F, so the caller
 * should take, for each t_k, the frame on display at that instant. A tolerance of 1e-9 frames keeps
 * products like 2.2·25 = 55.00000000000001 from adding a frame. Non-positive or unknown durations give none.
 */
export function uniformSampleTimestamps(durationS: number, fps: number): number[] {
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps must be a positive number, got ${fps}.`);
  if (!(Number.isFinite(durationS) && durationS > 0)) return [];
  const count = Math.max(1, Math.ceil(durationS * fps - 1e-9));
  return Array.from({ length: count }, (_, k) => k / fps);
}

type KeyFrameParametersInput = Exclude<FrameSetParametersInput, { mode: "uniform" }>;

/** One sampled frame of a key-frame set: the time it stands for and the decoded frame shown then. */
interface KeyFrameSample {
  /** k / sampleFps, seconds from the first frame. */
  timestampS: number;
  /** Index of the frame shown at timestampS among the video's decoded frames (0-based, presentation order). */
  frameIndex: number;
}

/** Times are compared in whole microseconds: ffprobe prints them with 6 decimals, mediabunny divides exactly. */
function microseconds(seconds: number): number {
  return Math.round(seconds * 1e6);
}

/**
 * What a key-frame set samples, from the decoded frames' presentation times alone (so every decoder that lists
 * the same frames samples the same ones): the video lasts from its first frame to the end of its last, which
 * lasts the average frame interval (whole microseconds); t_k = k / sampleFps for t_k < that duration (uniformSampleTimestamps);
 * each t_k takes the last frame whose time since the first frame is ≤ t_k, compared in whole microseconds.
 * A one-frame video gives that frame once, with duration 0.
 */
export function keyFrameSampling(
  framePtsS: readonly number[],
  sampleFps: number,
): { durationS: number; samples: KeyFrameSample[] } {
  if (framePtsS.length === 0) throw new RangeError("The video has no frames to sample.");
  framePtsS.forEach((pts, index) => {
    if (!Number.isFinite(pts)) throw new RangeError(`Frame ${index} has an invalid time ${pts}.`);
    if (index > 0 && pts < framePtsS[index - 1]!)
      throw new RangeError(`Frame ${index} (${pts} s) comes before frame ${index - 1}.`);
  });
  const origin = microseconds(framePtsS[0]!);
  const relative = framePtsS.map((pts) => microseconds(pts) - origin);
  const count = relative.length;
  if (count === 1) return { durationS: 0, samples: [{ timestampS: 0, frameIndex: 0 }] };
  // The last frame lasts the average frame interval (one gap alone can be a microsecond off after rounding).
  const durationS = Math.round((relative[count - 1]! * count) / (count - 1)) / 1e6;
  let frameIndex = 0;
  const samples = uniformSampleTimestamps(durationS, sampleFps).map((timestampS) => {
    const limit = microseconds(timestampS);
    while (frameIndex + 1 < count && relative[frameIndex + 1]! <= limit) frameIndex++;
    return { timestampS, frameIndex };
  });
  return { durationS, samples };
}

export type SampledFrame = { timestampS: number; features: Float32Array };

export type PlannedFrame = { index: number; timestampS: number; isKeyFrame: boolean; cluster: number | null };

export type FrameSetPlan = {
  /** One entry per sampled frame, in the order given; `index` is the position. */
  frames: PlannedFrame[];
  /** Ascending. */
  keyFrameIndices: number[];
};

/**
 * Marks key frames and clusters over the frames the caller sampled (in time order):
 * - density-peaks: m = keyFrames, or defaultKeyFrameCount(durationS) when "auto", over all sampled
 *   frames; clusters of ±neighbours with the nearer-key-frame rule of buildClusters.
 * - scene-change: selectSceneChangeKeyFrames with minGap = max(1, ceil(minGapS·sampleFps)) frames and
 *   max = maxKeyFrames; clusters as above.
 *
 * Uniform sets are not planned here: they take decoded frames by index (uniformFrameSetFrames).
 */
export function planFrameSet(
  parameters: KeyFrameParametersInput,
  sampled: readonly SampledFrame[],
  durationS: number,
): FrameSetPlan {
  const normalised = normaliseFrameSetParameters(parameters);
  if (normalised.mode === "uniform")
    throw new RangeError("A uniform frame set picks frames by index (uniformFrameSetFrames), not from sampled times.");
  sampled.forEach(({ timestampS }, index) => {
    if (!(Number.isFinite(timestampS) && timestampS >= 0))
      throw new RangeError(`Frame ${index} has an invalid timestamp ${timestampS}.`);
    const previous = sampled[index - 1];
    if (previous && timestampS < previous.timestampS)
      throw new RangeError(
        `Frame ${index} (${timestampS} s) comes before frame ${index - 1} (${previous.timestampS} s).`,
      );
  });

  const frameCount = sampled.length;

  const features = sampled.map(({ features }) => features);
  const keyFrameIndices =
    normalised.mode === "density-peaks"
      ? selectKeyFramesDensityPeaks(features, {
          m: normalised.keyFrames === "auto" ? defaultKeyFrameCount(durationS) : normalised.keyFrames,
        })
      : selectSceneChangeKeyFrames(features, {
          threshold: normalised.threshold,
          minGap: Math.max(1, Math.ceil(normalised.minGapS * normalised.sampleFps - 1e-9)),
          max: normalised.maxKeyFrames,
        });
  const keyFrames = new Set(keyFrameIndices);
  const { clusterOfFrame } = buildClusters(keyFrameIndices, frameCount, normalised.neighbours);
  return {
    frames: sampled.map(({ timestampS }, index) => ({
      index,
      timestampS,
      isKeyFrame: keyFrames.has(index),
      cluster: clusterOfFrame[index] ?? null,
    })),
    keyFrameIndices,
  };
}
