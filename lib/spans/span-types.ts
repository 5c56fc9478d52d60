/**
 * A span: a labelled stretch of one video, frames `startFrame`..`endFrame` inclusive (indices of the video's
 * decoded frames in presentation order) and the same stretch in seconds. A point in time is a span of one frame.
 * Plain data: the browser imports it too.
 */

/** A box on one frame of a span, in fractions of the frame (0–1 from its top-left corner). */
export interface BoxKeyframe {
  /** The video frame index the box is drawn on. */
  frame: number;
  x: number;
  y: number;
  w: number;
  h: number;
  /**
   * The box continues to the next keyframe (interpolated linearly between them) or, after the last, to the span's
   * end; false: it is shown on this frame only (Label Studio's `enabled`).
   */
  enabled: boolean;
}

export type SpanAuthorKind = "reviewer" | "label_set" | "judge" | "gold";

/** What a person or an importer gives for a span; the seconds follow from the frames. */
export interface SpanFields {
  /** The task whose labels it uses (a pipeline id, a rubric task id) or PROJECT_SPAN_TASK. */
  task: string;
  label: string;
  /** The judged item it is about ('' for the video itself). */
  itemId: string;
  startFrame: number;
  endFrame: number;
  boxes: BoxKeyframe[];
  note: string;
}

export interface SpanRecord extends SpanFields {
  id: string;
  videoId: string;
  startS: number;
  endS: number;
  authorKind: SpanAuthorKind;
  /** A user id, `labelset:<id>[:<column>]`, `run:<id>` or `gold`: the rater agreement names. */
  authorId: string;
  /**
   * A reviewer's name (else email), sent only to callers who may see who marked what (span-visibility.ts); absent
   * for everyone else and for other authors.
   */
  authorName?: string;
  runId: string | null;
  labelSetId: string | null;
  queueId: string | null;
  version: number;
  updatedAt: string;
}

/** The task id of spans labelled from the project's own list. */
export const PROJECT_SPAN_TASK = "project";

/** The author id of a judge run's spans. */
export function judgeAuthorId(runId: string): string {
  return `run:${runId}`;
}

/** The author id of the adjudicated spans. */
export const GOLD_AUTHOR_ID = "gold";
