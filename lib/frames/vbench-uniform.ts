// "Uniform N" frame sets, as VBench-2.0's evaluators sample a video with decord:
//
//   frame_idx  = np.linspace(0, total_frames - 1, N, dtype=int)   # truncated toward zero
//   frame_time = ",".join(f"{i / avg_fps:.2f}s" for i in frame_idx)
//   video_time = total_frames / avg_fps
//
// total_frames is the number of frames of the video stream and avg_fps its average frame rate; each decoder
// path says where it reads them (lib/frames/ffmpeg-sampling.ts, lib/browser-extraction/webcodecs-backend.ts).
// These functions are pure, shared by the browser (WebCodecs and ffmpeg.wasm) and headless (native ffmpeg)
// extraction, so every path picks the same frame indices.
import type { FrameManifest } from "./frame-set-parameters";

export function checkPositiveInteger(name: string, value: number) {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be an integer ≥ 1, got ${value}.`);
}

export function checkPositiveRate(avgFps: number) {
  if (!(Number.isFinite(avgFps) && avgFps > 0))
    throw new RangeError(`avgFps must be a positive number, got ${avgFps}.`);
}

/**
 * `np.linspace(0, totalFrames - 1, count, dtype=int)`, bit for bit. numpy computes step = (stop - start) / (num - 1)
 * in float64, then value[i] = i·step + start for i < num − 1, the last value exactly stop, and truncates toward
 * zero. The float product matters: linspace(0, 30, 23)[11] is 11·(30/22) = 14.999999999999998, so 14, where exact
 * arithmetic (11·30/22 = 15) would give 15. With count > totalFrames some indices repeat, as in numpy.
 */
export function vbenchUniformIndices(totalFrames: number, count: number): number[] {
  checkPositiveInteger("totalFrames", totalFrames);
  checkPositiveInteger("count", count);
  const start = 0;
  const stop = totalFrames - 1;
  // numpy: num == 1 has no step (y = [0]·delta + start).
  if (count === 1) return [start];
  const step = (stop - start) / (count - 1);
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? stop : Math.trunc(i * step + start)));
}

/**
 * Python's `f"{x:.2f}"`: the float's exact binary value rounded to 2 decimals, ties to even. JavaScript's
 * toFixed rounds the same exact value but breaks ties upwards ((0.125).toFixed(2) is "0.13", Python "0.12").
 * A double lies exactly halfway between two hundredths only when it is an odd multiple of 1/8 (k/200 with k
 * odd is a binary fraction only when 25 divides k): those are rounded to even here, the rest by toFixed, which
 * already rounds the exact value (2.675 is 2.67499999999999982236431605997495353221893310546875, so "2.67").
 */
export function pythonFixed2(x: number): string {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e15) throw new RangeError(`Cannot format ${x} with 2 decimals.`);
  const eighths = x * 8; // exact: a power-of-two scale
  if (!(Number.isInteger(eighths) && eighths % 2 !== 0)) return x.toFixed(2);
  const sign = x < 0 ? "-" : "";
  const hundredthsBelow = Math.floor(Math.abs(x) * 100); // |x|·100 = 12.5·|eighths|, exact below 2^52
  const hundredths = hundredthsBelow % 2 === 0 ? hundredthsBelow : hundredthsBelow + 1;
  return `${sign}${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`;
}

export interface UniformFrame {
  /** The frame's index among the video's decoded frames (0-based, presentation order). */
  index: number;
  /** index / avgFps, seconds: the time VBench-2.0's frame_time gives the frame. */
  timestampS: number;
}

/**
 * The frames a uniform frame set of `count` stores: vbenchUniformIndices, each frame once, ascending. A frame
 * the list names twice (count > totalFrames) is stored once: a frame is identified by its index in the set.
 */
export function uniformFrameSetFrames(totalFrames: number, avgFps: number, count: number): UniformFrame[] {
  checkPositiveRate(avgFps);
  const indices = [...new Set(vbenchUniformIndices(totalFrames, count))];
  return indices.map((index) => ({ index, timestampS: index / avgFps }));
}

/**
 * The manifest of a uniform frame set: each frame under its frame index, named after it, every frame a key
 * frame in its own one-frame cluster (so runs and cluster-based judging treat all frame sets alike).
 */
export function uniformFrameManifest(frames: readonly UniformFrame[]): FrameManifest {
  return frames.map(({ index, timestampS }) => ({
    name: `frame-${String(index).padStart(6, "0")}.jpg`,
    index,
    timestampS,
    isKeyFrame: true,
    cluster: index,
  }));
}
