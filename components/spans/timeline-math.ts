/**
 * The timeline's geometry, in frames: which frames a view shows, where a frame is on screen, where a pointer is in
 * frames (snapped to whole frames), zooming about a point, and which spans a view needs to draw. The timeline's axis
 * is frame indices, one cell per frame (frame f covers [f, f + 1)), so a variable frame rate never bends a span: the
 * seconds are read from the video's frame times only where a time is shown. Pure functions: every part of the
 * timeline and the benchmark read them.
 */

/** What the timeline shows: frames from `first` (fractional when panned smoothly), `visible` frames across. */
export interface TimelineView {
  first: number;
  visible: number;
}

/** The closest zoom: this many frames fill the track's width (each frame a wide cell). */
export const MIN_VISIBLE_FRAMES = 10;
/** Each zoom step shows this factor fewer (in) or more (out) frames. */
export const ZOOM_STEP = 1.5;

/** The whole video in view. */
export function fullView(frameCount: number): TimelineView {
  return { first: 0, visible: Math.max(1, frameCount) };
}

/** A view kept inside the video: at least MIN_VISIBLE_FRAMES (or the whole video) across, never past either end. */
export function clampView(view: TimelineView, frameCount: number): TimelineView {
  const count = Math.max(1, frameCount);
  const visible = Math.min(count, Math.max(Math.min(MIN_VISIBLE_FRAMES, count), view.visible));
  const first = Math.min(Math.max(0, view.first), count - visible);
  return { first, visible };
}

/** The x of a frame's left edge, in pixels from the track's left. */
export function frameToX(view: TimelineView, width: number, frame: number): number {
  return ((frame - view.first) / view.visible) * width;
}

/** The frame under pixel x (the cell it falls in), inside the video. */
export function xToFrame(view: TimelineView, width: number, x: number, frameCount: number): number {
  if (width <= 0) return 0;
  const frame = Math.floor(view.first + (x / width) * view.visible);
  return Math.min(Math.max(frame, 0), Math.max(0, frameCount - 1));
}

/** A drag of dx pixels as whole frames (a body or edge moves by whole frames: snapping). */
export function pixelsToFrames(view: TimelineView, width: number, dx: number): number {
  if (width <= 0) return 0;
  return Math.round((dx / width) * view.visible);
}

/** Zooms by `factor` (> 1 in, < 1 out) keeping `anchor` (a frame, fractional) at the same place on screen. */
export function zoomAbout(view: TimelineView, factor: number, anchor: number, frameCount: number): TimelineView {
  const visible = view.visible / factor;
  const at = view.visible > 0 ? (anchor - view.first) / view.visible : 0;
  const clampedVisible = clampView({ first: 0, visible }, frameCount).visible;
  return clampView({ first: anchor - at * clampedVisible, visible: clampedVisible }, frameCount);
}

/** The whole frames the view touches, inclusive. */
export function visibleRange(view: TimelineView, frameCount: number): { from: number; to: number } {
  const from = Math.max(0, Math.floor(view.first));
  const to = Math.min(frameCount - 1, Math.ceil(view.first + view.visible) - 1);
  return { from, to: Math.max(from, to) };
}

/** The spans the view shows any part of: only these are drawn, so a thousand spans cost what a screenful costs. */
export function visibleSpans<T extends { startFrame: number; endFrame: number }>(
  spans: readonly T[],
  range: { from: number; to: number },
): T[] {
  return spans.filter((s) => s.startFrame <= range.to && s.endFrame >= range.from);
}

/** A ruler step (1, 2, 5 × 10^k frames) that leaves at least `minPx` between ticks. */
export function rulerStep(view: TimelineView, width: number, minPx = 70): number {
  if (width <= 0) return Math.max(1, Math.ceil(view.visible));
  const framesPerPx = view.visible / width;
  const least = framesPerPx * minPx;
  for (let power = 1; ; power *= 10) for (const m of [1, 2, 5]) if (m * power >= least) return m * power;
}

/** The ticks of the ruler in view: multiples of the step. */
export function rulerTicks(view: TimelineView, width: number, frameCount: number): number[] {
  const step = rulerStep(view, width);
  const { from, to } = visibleRange(view, frameCount);
  const ticks: number[] = [];
  for (let f = Math.ceil(from / step) * step; f <= to; f += step) ticks.push(f);
  return ticks;
}

export type SpanEdge = "start" | "end";

/**
 * The edge Shift+←/→ moves: the one nearer the playhead (a tie, or a playhead inside a one-frame span: the end), so a
 * reviewer parks the playhead by the boundary they mean and nudges it frame by frame.
 */
export function nearerEdge(span: { startFrame: number; endFrame: number }, playhead: number): SpanEdge {
  return Math.abs(playhead - span.startFrame) < Math.abs(playhead - span.endFrame) ? "start" : "end";
}

/** A span with one edge moved to `frame`, inside the video; an edge never passes the other (a span keeps a frame). */
export function withEdgeAt<T extends { startFrame: number; endFrame: number }>(
  span: T,
  edge: SpanEdge,
  frame: number,
  frameCount: number,
): T {
  const last = Math.max(0, frameCount - 1);
  if (edge === "start") return { ...span, startFrame: Math.min(Math.max(0, frame), span.endFrame) };
  return { ...span, endFrame: Math.max(Math.min(last, frame), span.startFrame) };
}

/** A span moved by `delta` frames as a whole, stopped at either end of the video (its length kept). */
export function movedBy<T extends { startFrame: number; endFrame: number }>(
  span: T,
  delta: number,
  frameCount: number,
): T {
  const last = Math.max(0, frameCount - 1);
  const clamped = Math.min(Math.max(delta, -span.startFrame), last - span.endFrame);
  return { ...span, startFrame: span.startFrame + clamped, endFrame: span.endFrame + clamped };
}

/** The in and out points as a span's frames, in order (only one set: a one-frame span at it). */
export function inOutFrames(
  inFrame: number | null,
  outFrame: number | null,
): { startFrame: number; endFrame: number } | null {
  if (inFrame === null && outFrame === null) return null;
  const a = inFrame ?? outFrame!;
  const b = outFrame ?? inFrame!;
  return { startFrame: Math.min(a, b), endFrame: Math.max(a, b) };
}
