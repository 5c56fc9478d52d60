import { checkPositiveInteger, checkPositiveRate, pythonFixed2 } from "../../lib/frames/vbench-uniform";

/**
 * VBench-2.0's `frame_time`: each index's time `index / avgFps` as Python's "%.2f" followed by "s", comma-joined.
 * The app keeps each frame's time as a number; tests compare its uniform sets with VBench-2.0's strings through this.
 */
export function vbenchFrameTime(indices: readonly number[], avgFps: number): string {
  checkPositiveRate(avgFps);
  return indices.map((index) => `${pythonFixed2(index / avgFps)}s`).join(",");
}

/** VBench-2.0's `video_time`: totalFrames / avgFps seconds. */
export function vbenchVideoTime(totalFrames: number, avgFps: number): number {
  checkPositiveInteger("totalFrames", totalFrames);
  checkPositiveRate(avgFps);
  return totalFrames / avgFps;
}
