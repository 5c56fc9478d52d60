/**
 * The size of the frames a run sends (a run setting such as `resize`). Seed 004 compresses each frame "to
 * one-quarter of their original size" before uploading it to an API model: half the width and half the
 * height of the video. A run may instead ask for a longest side in pixels (never upscaled: a small video
 * keeps its size).
 *
 * Frames are decoded and resized in the browser (there is no image library on the server), so the plan
 * says which uniform frame set fits: the Extract pending page extracts one with the planned longest side,
 * and a run takes, per video, the newest uniform set of its frame count whose frames have the planned size
 * (or that was extracted with the planned longest side).
 */
import { fitWithin } from "./frame-size";

export type FrameResize = { mode: "quarter" } | { mode: "longest_side"; px: number };

export interface FramePlan {
  /** The longest side to extract with (the uniform frame set's `maxSide`). */
  maxSide: number;
  /** The frames' size; null when the video's size is unknown (a longest side can still be planned). */
  width: number | null;
  height: number | null;
}

export type FramePlanResult = ({ ok: true } & FramePlan) | { ok: false; reason: string };

/** Pixels either way a frame may differ from the plan: the server's probe and the browser's decoder may round the display size differently. */
export const SIZE_TOLERANCE_PX = 2;

export function describeResize(resize: FrameResize): string {
  return resize.mode === "quarter" ? "a quarter of the video's area" : `a longest side of ${resize.px} px`;
}

export function planFrames(
  video: { width: number | null; height: number | null },
  resize: FrameResize,
): FramePlanResult {
  const known = video.width !== null && video.height !== null && video.width > 0 && video.height > 0;
  if (resize.mode === "longest_side") {
    if (!known) return { ok: true, maxSide: resize.px, width: null, height: null };
    return { ok: true, maxSide: resize.px, ...fitWithin(video.width!, video.height!, resize.px) };
  }
  if (!known) return { ok: false, reason: "the video's size is unknown, so a quarter of its area cannot be planned" };
  const maxSide = Math.max(1, Math.round(Math.max(video.width!, video.height!) / 2));
  return { ok: true, maxSide, ...fitWithin(video.width!, video.height!, maxSide) };
}

/** Whether a uniform frame set (its `maxSide` parameter and its first frame's size) is the planned one. */
export function frameSetFitsPlan(
  plan: FramePlan,
  set: { maxSide: number | null; width: number; height: number },
): boolean {
  if (set.maxSide === plan.maxSide) return true;
  if (plan.width === null || plan.height === null) return false;
  return (
    Math.abs(set.width - plan.width) <= SIZE_TOLERANCE_PX && Math.abs(set.height - plan.height) <= SIZE_TOLERANCE_PX
  );
}
