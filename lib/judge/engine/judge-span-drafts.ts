/**
 * The video frame a sampled frame shows, for a pipeline's judge spans (their types: lib/task-modules/judge-span-types.ts).
 */
import { frameAtTime, type FrameTimes } from "../../frames/frame-times";
import type { SampledFrame } from "../../task-modules/judge-span-types";

/**
 * The video frame a sampled frame shows: the frame on screen at its timestamp (never past the last frame, since a
 * sampler's rounding may put the last sample a hair after it).
 */
export function videoFrameOfSample(times: FrameTimes, timestampS: number): number {
  return Math.min(frameAtTime(times, timestampS), Math.max(0, times.timesS.length - 1));
}

/** The video frames a set of sampled frames covers, first to last. */
export function videoFramesOfSamples(
  times: FrameTimes,
  frames: readonly Pick<SampledFrame, "timestampS">[],
): { startFrame: number; endFrame: number } | null {
  if (frames.length === 0) return null;
  const at = frames.map((f) => videoFrameOfSample(times, f.timestampS));
  return { startFrame: Math.min(...at), endFrame: Math.max(...at) };
}
