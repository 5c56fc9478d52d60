/**
 * How much two raters' spans of one label cover the same frames: the frame IoU of the frames each one's spans cover
 * (|A∩B| / |A∪B| counted in frames, inclusive), with overlapping or touching spans of one rater counted once. Used to
 * rank where spans disagree (what to label next, the adjudication of spans); the agreement report's matching of
 * spans one to one is lib/spans/agreement. Pure: the browser imports it too.
 */
import { frameCounts } from "./agreement/match";
import type { SpanFields } from "./span-types";

export type FrameRange = Pick<SpanFields, "startFrame" | "endFrame">;

/** One of mergedRanges' ranges: the frames it covers (inclusive) and the spans it joins, in frame order. */
export interface MergedRange<S extends FrameRange> {
  startFrame: number;
  endFrame: number;
  spans: S[];
}

/**
 * The frames the spans cover, as sorted disjoint inclusive ranges: spans that overlap or touch (the next starts at
 * most one frame after the range so far ends) join one range. The one range merger of spans; the agreement report's
 * matching keeps its own on typed arrays (lib/spans/agreement/match.ts frameRuns), where a merge allocates nothing.
 */
export function mergedRanges<S extends FrameRange>(spans: readonly S[]): MergedRange<S>[] {
  const sorted = [...spans].sort((a, b) => a.startFrame - b.startFrame || a.endFrame - b.endFrame);
  const out: MergedRange<S>[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.startFrame <= last.endFrame + 1) {
      last.endFrame = Math.max(last.endFrame, span.endFrame);
      last.spans.push(span);
    } else out.push({ startFrame: span.startFrame, endFrame: span.endFrame, spans: [span] });
  }
  return out;
}

/** The frame IoU of two raters' spans of one label; 1 when neither marks any frame (they agree it is not there). */
export function frameIoU(a: readonly FrameRange[], b: readonly FrameRange[]): number {
  // The agreement report's frame count, unclipped: spans are checked to lie inside their video.
  const { reference, prediction, both } = frameCounts(a, b, Number.POSITIVE_INFINITY);
  const union = reference + prediction - both;
  return union === 0 ? 1 : both / union;
}

/** One rater's spans of one label on one video. */
export interface RaterSpans {
  /** A reviewer's user id, or a judge run's author id (`run:<id>`). */
  rater: string;
  judge: boolean;
  spans: readonly FrameRange[];
}

export interface LabelDisagreement {
  /** 0 (all raters cover the same frames) to 1 (a pair shares no frame, or the judge marks it and no reviewer does). */
  disagreement: number;
  /** "judge_only": the judge marks the label and no reviewer does; "overlap": the least-overlapping pair's IoU. */
  reason: "judge_only" | "overlap" | "agree";
  /** The pair the figure is of (the least-overlapping one), when there is one. */
  pair: [string, string] | null;
}

/**
 * How much the raters of a video disagree on where a label is: 1 when the judge marks it and no reviewer does (nobody
 * has checked the judge's claim), else 1 − the lowest frame IoU over every pair of raters (a rater without spans of
 * the label says it is not there); 0 with fewer than two raters.
 */
export function labelDisagreement(raters: readonly RaterSpans[]): LabelDisagreement {
  const reviewersMark = raters.some((r) => !r.judge && r.spans.length > 0);
  const judge = raters.find((r) => r.judge && r.spans.length > 0);
  if (judge && !reviewersMark) return { disagreement: 1, reason: "judge_only", pair: null };
  let lowest: { iou: number; pair: [string, string] } | null = null;
  for (let i = 0; i < raters.length; i++)
    for (let j = i + 1; j < raters.length; j++) {
      const iou = frameIoU(raters[i]!.spans, raters[j]!.spans);
      if (!lowest || iou < lowest.iou) lowest = { iou, pair: [raters[i]!.rater, raters[j]!.rater] };
    }
  if (!lowest || lowest.iou === 1) return { disagreement: 0, reason: "agree", pair: lowest?.pair ?? null };
  return { disagreement: 1 - lowest.iou, reason: "overlap", pair: lowest.pair };
}
