/**
 * Frame indices and seconds of one video, from its frames' presentation times (lib/videos/video-frame-times.ts reads
 * them from the container). Exact for a variable frame rate: a time is never computed as index ÷ fps.
 * Plain data and pure functions: the browser imports it too.
 */

export interface FrameTimes {
  /** Each decoded frame's presentation time in seconds from the first frame (the first is 0), ascending. */
  timesS: readonly number[];
  /** The last frame's time plus its duration. */
  endS: number;
  /** The gaps between frames differ by more than a millisecond: seconds alone cannot name a frame. */
  variable: boolean;
}

/**
 * Gaps between frames that differ by at most this are one frame rate: container timestamps are rounded, and a
 * millisecond time base (Matroska, WebM) writes 30 fps as gaps of 33 and 34 ms.
 */
const VARIABLE_GAP_S = 0.001;

/**
 * A time this close before a frame's time names that frame: seconds printed with six decimals (ffprobe's `pts_time`)
 * or summed in floating point land a little before the exact time.
 */
const TIME_EPSILON_S = 1e-6;

/** Frame times from the packets' presentation timestamps (any order, any origin); null for no packets. */
export function frameTimesFromTimestamps(timestampsS: readonly number[], durationS?: number | null): FrameTimes | null {
  const finite = timestampsS.filter((t) => Number.isFinite(t));
  if (finite.length === 0) return null;
  const sorted = [...finite].sort((a, b) => a - b);
  const origin = sorted[0]!;
  const timesS = sorted.map((t) => t - origin);
  let minGap = Infinity;
  let maxGap = 0;
  for (let i = 1; i < timesS.length; i++) {
    const gap = timesS[i]! - timesS[i - 1]!;
    minGap = Math.min(minGap, gap);
    maxGap = Math.max(maxGap, gap);
  }
  const last = timesS[timesS.length - 1]!;
  // The last frame lasts as long as the one before it; a single frame lasts to the container's end (a duration on
  // the container's clock, so measured from the same origin as the timestamps).
  const lastGap = timesS.length > 1 ? last - timesS[timesS.length - 2]! : (durationS ?? 0) - origin - last;
  const endS = last + (lastGap > 0 ? lastGap : 1 / 30);
  return { timesS, endS, variable: timesS.length > 2 && maxGap - minGap > VARIABLE_GAP_S + TIME_EPSILON_S };
}

/** Index of the frame shown at time t: the last frame whose time is ≤ t (the first frame before it). */
export function frameAtTime(times: FrameTimes, t: number): number {
  const { timesS } = times;
  if (timesS.length === 0 || t <= timesS[0]!) return 0;
  let lo = 0;
  let hi = timesS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (timesS[mid]! <= t + TIME_EPSILON_S) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The time frame i starts, and the time it ends (the next frame's time, or the video's end). */
export function frameStartS(times: FrameTimes, frame: number): number {
  return times.timesS[frame] ?? times.endS;
}

export function frameEndS(times: FrameTimes, frame: number): number {
  return times.timesS[frame + 1] ?? times.endS;
}

/** A span's seconds: from its first frame's time to the end of its last frame. */
export function spanSeconds(times: FrameTimes, startFrame: number, endFrame: number): { startS: number; endS: number } {
  return { startS: frameStartS(times, startFrame), endS: frameEndS(times, endFrame) };
}

/**
 * The frames a stretch [startS, endS) in seconds covers: the frame shown at startS to the last frame that starts
 * before endS (at least the start frame: a point in time is one frame).
 */
export function framesOfSeconds(
  times: FrameTimes,
  startS: number,
  endS: number,
): { startFrame: number; endFrame: number } {
  const startFrame = frameAtTime(times, startS);
  let endFrame = frameAtTime(times, endS);
  if (endFrame > startFrame && frameStartS(times, endFrame) >= endS - TIME_EPSILON_S) endFrame--;
  return { startFrame, endFrame: Math.max(startFrame, endFrame) };
}

/** The midpoint of a frame, where a player seeks to show exactly that frame whatever its rounding. */
export function frameSeekS(times: FrameTimes, frame: number): number {
  return (frameStartS(times, frame) + frameEndS(times, frame)) / 2;
}
