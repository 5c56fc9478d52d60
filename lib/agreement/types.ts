/**
 * The agreement dashboard's data model: judged targets ("items") with the judge's value and every
 * reviewer's current value, and the report computed from them (lib/agreement/report.ts).
 */
export const TARGET_TYPES = ["score", "verdict", "overall"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export interface ItemRating {
  reviewerId: string;
  value: number;
}

/** The judge's per-video values in a run, for the threshold sweep (0–10, except overall 0–100). */
export interface VideoJudgeValues {
  S: number | null;
  D: number | null;
  I: number | null;
  overall: number | null;
  /** The highest score of any category at any key frame or cluster. */
  worst: number | null;
}

/** One judged target: a judge score (one category at one key frame / cluster), or a video's verdict or overall in a run. */
export interface AgreementItem {
  /** The target's key (`score:<scoreId>` or `<targetType>:<runId>:<videoId>`). */
  key: string;
  targetType: TargetType;
  runId: string;
  videoId: string;
  /** s1–s10, d1–d9, inconsistency; "verdict" or "overall" for the video-level targets. */
  category: string;
  stepId: string | null;
  scopeIndex: number | null;
  /** The judge's value: 0–10 for scores, 1/0 for the verdict, 0–100 for overall; null when unknown. */
  judge: number | null;
  ratings: ItemRating[];
  dimensions: string[];
  model: string | null;
  endpointId: string;
  /** The prompt template hash of the score's step; for video-level targets the hashes of the scoring steps joined with "+". */
  promptVersion: string | null;
  /** On verdict items: the judge's per-video values, for the threshold sweep. */
  videoValues?: VideoJudgeValues;
}

export interface RunInfo {
  id: string;
  endpointId: string;
  endpointName: string;
  model: string | null;
  createdAt: string;
}

export interface ReviewerInfo {
  id: string;
  label: string;
}

export interface AgreementInput {
  items: AgreementItem[];
  reviewers: ReviewerInfo[];
  runs: RunInfo[];
  /** Videos matching the filter. */
  videoCount: number;
  /** Judged targets (scores, verdicts, overalls) of those videos, reviewed or not. */
  judgeItemCount: number;
}

export interface AgreementOptions {
  /** Scores (0–10) at or above it count as a hallucination. */
  threshold: number;
  /** Overall (0–100) below it counts as a hallucination. */
  overallThreshold: number;
  /** Bootstrap resamples per interval. */
  iterations: number;
  seed: number;
  /** Most points in the scatter plot. */
  scatterLimit: number;
}

export const DEFAULT_AGREEMENT_OPTIONS: AgreementOptions = { threshold: 5, overallThreshold: 60, iterations: 200, seed: 20240601, scatterLimit: 2000 };

export type Interval = [number, number];

/** Named statistics over `n` paired values; `ci` holds bootstrap 95% intervals for some of them. */
export interface StatBlock {
  n: number;
  values: Record<string, number | null>;
  ci: Record<string, Interval | null>;
}

export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export interface BinaryBlock extends StatBlock {
  /** Rows: the human side (truth); columns: the judge (prediction); positive = hallucination. */
  confusion: Confusion;
}

export interface JudgeComparison {
  n: number;
  /** On each target's own scale. */
  native: Record<TargetType, StatBlock>;
  /** Every target binarised (score ≥ threshold, verdict as is, overall < overallThreshold). */
  binary: BinaryBlock;
}

export interface ReviewerComparison extends JudgeComparison {
  reviewerId: string;
  label: string;
}

export interface ReviewerPair {
  a: string;
  b: string;
  labelA: string;
  labelB: string;
  /** Binarised: kappa and percent agreement over the targets both rated. */
  binary: StatBlock;
  /** Scores only, 0–10: quadratic-weighted kappa, Spearman, MAE. */
  score: StatBlock;
}

export interface HumanAgreement {
  /** Targets rated by two or more reviewers. */
  items: number;
  native: Record<TargetType, StatBlock>;
  binary: StatBlock;
  pairs: ReviewerPair[];
}

export interface VideoRef {
  runId: string;
  videoId: string;
}

export interface ConfusionCell {
  human: 0 | 1;
  judge: 0 | 1;
  count: number;
  /** Per run, for links to the video list (whose filters read one run). */
  runs: { runId: string; count: number }[];
  /** Some of the videos behind the cell (at most 20), for direct links. */
  videos: VideoRef[];
}

export interface ConfusionView {
  n: number;
  /** Always four cells: (human, judge) = (1,1), (1,0), (0,1), (0,0). */
  cells: ConfusionCell[];
}

export const SWEEP_METRICS = ["I", "S", "D", "worst", "overall"] as const;
export type SweepMetric = (typeof SWEEP_METRICS)[number];

export interface SweepPoint {
  threshold: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  accuracy: number | null;
  kappa: number | null;
}

export interface SweepCurve {
  metric: SweepMetric;
  /** ">=": the judge says hallucination when the value is at or above the threshold; "<": below it (overall). */
  rule: ">=" | "<";
  n: number;
  points: SweepPoint[];
  best: SweepPoint | null;
}

export const BREAKDOWNS = ["category", "dimension", "model", "endpoint", "promptVersion"] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

export interface BreakdownGroup {
  key: string;
  label: string;
  /** Reviewed targets in the group. */
  items: number;
  /** Judge vs reviewers' consensus: binarised accuracy, kappa, F1 (with CIs); Spearman and MAE when the group has one scale. */
  judge: StatBlock;
  /** Among reviewers, binarised. */
  humans: StatBlock;
  /** Video-list filter params that select the group's videos, when the list has such a filter. */
  link: Record<string, string> | null;
}

export interface ScatterPoint {
  judge: number;
  human: number;
  category: string;
  runId: string;
  videoId: string;
  scopeIndex: number | null;
}

export interface AgreementReport {
  options: { threshold: number; overallThreshold: number; iterations: number; seed: number };
  runs: RunInfo[];
  reviewers: ReviewerInfo[];
  summary: {
    videos: number;
    judgeItems: number;
    reviewedItems: number;
    judgments: number;
    reviewedVideos: number;
    multiReviewedItems: number;
    reviewers: number;
  };
  humanVsJudge: { consensus: JudgeComparison; reviewers: ReviewerComparison[] };
  humanVsHuman: HumanAgreement;
  confusion: { verdict: ConfusionView; score: ConfusionView; overall: ConfusionView; all: ConfusionView };
  sweep: SweepCurve[];
  breakdowns: Record<Breakdown, BreakdownGroup[]>;
  scatter: { total: number; points: ScatterPoint[] };
}
