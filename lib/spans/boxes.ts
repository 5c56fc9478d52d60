/**
 * A span's box on any frame, from its keyframes: linear between two keyframes when the first is `enabled`, held
 * after the last enabled keyframe to the span's end, absent after a keyframe that is not enabled (Label Studio's
 * video rectangles and CVAT's tracks behave so). Plain data and pure functions: the browser imports it too.
 */
import type { BoxKeyframe } from "./span-types";

export type Box = Pick<BoxKeyframe, "x" | "y" | "w" | "h">;

/** The box on `frame`, or null where the span shows none. Keyframes must be sorted by frame. */
export function boxAt(keyframes: readonly BoxKeyframe[], frame: number, spanEndFrame: number): Box | null {
  if (keyframes.length === 0 || frame < keyframes[0]!.frame || frame > spanEndFrame) return null;
  let lo = 0;
  let hi = keyframes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (keyframes[mid]!.frame <= frame) lo = mid;
    else hi = mid - 1;
  }
  const from = keyframes[lo]!;
  if (from.frame === frame) return { x: from.x, y: from.y, w: from.w, h: from.h };
  if (!from.enabled) return null;
  const to = keyframes[lo + 1];
  if (!to) return { x: from.x, y: from.y, w: from.w, h: from.h };
  const t = (frame - from.frame) / (to.frame - from.frame);
  const mix = (a: number, b: number) => a + (b - a) * t;
  return { x: mix(from.x, to.x), y: mix(from.y, to.y), w: mix(from.w, to.w), h: mix(from.h, to.h) };
}

/** Intersection over union of two boxes (0 when either has no area). */
export function boxIou(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}
