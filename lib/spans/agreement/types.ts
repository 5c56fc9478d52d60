/** The shapes of span agreement: what it reads (raters, their videos and spans) and the report it gives. */
import type { BoxKeyframe } from "../span-types";

/** The IoU thresholds a predicted span must reach to match a reference span. */
export const SPAN_IOU_THRESHOLDS = [0.1, 0.3, 0.5, 0.7] as const;

/** The mean IoU of matched pairs is over the pairs matched at this threshold (the lowest). */
export const MEAN_IOU_THRESHOLD = 0.1;

export type SpanRaterKind = "reviewer" | "label_set" | "gold" | "judge";

export interface SpanRater {
  /** The spans' authorId: a user id, `labelset:<id>[:<column>]`, `gold` or `run:<id>`. */
  id: string;
  kind: SpanRaterKind;
  /** A name to show. */
  label: string;
}

export interface SpanAgreementRow {
  id: string;
  videoId: string;
  authorId: string;
  label: string;
  startFrame: number;
  endFrame: number;
  /** Sorted by frame. */
  boxes: readonly BoxKeyframe[];
}

export interface SpanAgreementInput {
  /** The labels to report, in order; spans of other labels are not read. */
  labels: readonly { id: string; label: string }[];
  raters: readonly SpanRater[];
  /** Per rater, the videos they looked at (a span of the task, a review, a judged video): a pair compares the videos both looked at. */
  coverage: ReadonlyMap<string, ReadonlySet<string>>;
  /** Frame count of each video; a video missing here is left out of every pair, and counted. */
  frameCounts: ReadonlyMap<string, number>;
  /** Spans that count (withdrawn ones are never passed). */
  spans: readonly SpanAgreementRow[];
}

export interface SpanAgreementOptions {
  iterations?: number;
  seed?: number;
  confidence?: number;
}

/** A statistic and its bootstrap interval over videos; null where undefined (no spans on a side, no variation). */
export interface SpanStat {
  value: number | null;
  ci: [number, number] | null;
}

/**
 * Who is compared with whom. The reference is the first rater (the person, when a judge is compared), the prediction
 * the second (the judge): precision is the share of predicted spans that match, recall the share of reference spans.
 * Between two people F1, κ and α are symmetric; precision and recall swap with the order (ids ascending).
 */
export type SpanComparisonKind = "people" | "people_pooled" | "judge_person" | "judge_people" | "judge_gold";

export interface SpanThresholdStats {
  threshold: number;
  matched: number;
  precision: SpanStat;
  recall: SpanStat;
  f1: SpanStat;
}

export interface SpanComparison {
  kind: SpanComparisonKind;
  /** Stable key (also the bootstrap stream's name). */
  key: string;
  referenceLabel: string;
  predictionLabel: string;
  /** The videos compared: both sides looked at them and their frame count is known. */
  videos: number;
  referenceSpans: number;
  predictionSpans: number;
  thresholds: SpanThresholdStats[];
  /** Mean temporal IoU of the pairs matched at IoU ≥ MEAN_IOU_THRESHOLD. */
  meanIou: SpanStat;
  frames: {
    both: number;
    referenceOnly: number;
    predictionOnly: number;
    neither: number;
    kappa: SpanStat;
    alpha: SpanStat;
  };
  /** Mean over matched pairs (IoU ≥ MEAN_IOU_THRESHOLD) where both spans have boxes of their mean per-frame box IoU. */
  boxIou: SpanStat & { pairs: number };
}

export interface SpanLabelAgreement {
  label: string;
  name: string;
  comparisons: SpanComparison[];
}

export interface SpanAgreementResult {
  matching: "greedy_iou";
  thresholds: number[];
  meanIouThreshold: number;
  bootstrap: { iterations: number; confidence: number; seed: number; over: "videos" };
  raters: SpanRater[];
  /** Videos some compared pair both looked at, left out because their frame count is unknown. */
  videosLeftOut: number;
  /** Labels with at least one span in a comparison. */
  labels: SpanLabelAgreement[];
}
