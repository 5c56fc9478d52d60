/**
 * The agreement dashboard's data model: judged targets ("items") with the judge's value and every
 * reviewer's current value, and the report computed from them (lib/agreement/report.ts).
 */
import type { MeasurementLevel } from "../stats/krippendorff-alpha";
import type { ReviewedMetricId } from "../task-modules/task-declaration";
import type { TaskDeclaration } from "../task-modules/task-declaration";

/**
 * Per target type: "score" is always present (so it type-checks by name); each reviewed metric of a
 * registered task (a ReviewedMetricId) adds its own, read by id.
 */
export type ByTargetType<T> = Record<"score", T> & Record<ReviewedMetricId, T>;

/** A human judgment's target type: "score" (a judge score of a declared target) or a reviewed metric's id. */
export type TargetType = string;

export interface ItemRating {
  reviewerId: string;
  value: number;
}

/**
 * The judge's per-video values in a run, for the threshold sweep: each swept metric by id, and
 * WORST_TARGET's value when the task sweeps it.
 */
export type VideoJudgeValues = Record<string, number | null>;

/** The sweep's pseudo-metric: the worst judge score of any target of the video (the highest, or the lowest when higher is better). */
export const WORST_TARGET = "worst";

/** One judged target: a judge score (one category at one key frame / cluster), or a video's verdict or overall in a run. */
export interface AgreementItem {
  /** The pipeline of the item's run, whose task declares the target (absent: found by the target's id). */
  taskId?: string;
  /** Unique per item: the run and the target (`<runId>|<targetKey>`). */
  key: string;
  /** What was judged, whichever run scored it (lib/reviews/judgment-key.ts): the same judgments in every run. */
  targetKey: string;
  targetType: TargetType;
  runId: string;
  videoId: string;
  /** The declared target's id for scores; the metric's id for per-video targets. */
  category: string;
  stepId: string | null;
  scopeIndex: number | null;
  /**
   * The judge's value: 0–10 for scores, 1/0 for the verdict, 0–100 for overall, present 1 / absent 0
   * for presence targets (the report derives it from `judgeScore`); null when unknown.
   */
  judge: number | null;
  /** Presence targets only: the judge's highest score of the category over its scopes (null: no score). */
  judgeScore?: number | null;
  ratings: ItemRating[];
  dimensions: string[];
  /** The model that made the subject: the video's generator, or the item's producer (a caption's model). */
  model: string | null;
  /** The judged item's values of the task's item groupings (a caption's type), by grouping id. */
  groups?: Record<string, string>;
  endpointId: string;
  /** The prompt template hash of the score's step; for video-level targets the hashes of the scoring steps joined with "+". */
  promptVersion: string | null;
  /** On items of the task's verdict metric: the judge's per-video values, for the threshold sweep. */
  videoValues?: VideoJudgeValues;
  /** The adjudicated gold value of the target (lib/adjudication), when an owner set one. */
  gold?: number | null;
}

export interface RunInfo {
  id: string;
  /** The run's pipeline (its task), for the run's name (lib/run-records/run-name.ts). */
  pipeline?: string;
  endpointId: string;
  endpointName: string;
  model: string | null;
  createdAt: string;
  /** Its name among the runs of the report, telling it apart from them (lib/judge/runs/run-option-labels). */
  label?: string;
}

export interface ReviewerInfo {
  id: string;
  label: string;
  /** Set when the "reviewer" is an imported label set (or one of its annotator columns), not a live reviewer. */
  labelSet?: { id: string; name: string; annotator: string | null };
}

export interface AgreementInput {
  items: AgreementItem[];
  /** The declarations of the tasks in scope (the project's catalogue's). */
  tasks: readonly TaskDeclaration[];
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
  /**
   * Overrides of declared positive-rule thresholds by target or metric id; `threshold` and
   * `overallThreshold` above are the hallucination task's named parameters (its `thresholdParams`).
   */
  thresholds?: Record<string, number>;
  /** Presence targets: the judge says "present" when its highest score of the category is ≥ it (unset: each task's declared default). */
  presenceThreshold?: number;
  /** Bootstrap resamples per interval. */
  iterations: number;
  seed: number;
  /** Most points in the scatter plot. */
  scatterLimit: number;
  /** The human side of the confusion, breakdowns, sweep and scatter: the reviewers' consensus (default) or the gold. */
  truth?: "consensus" | "gold";
}

export const DEFAULT_AGREEMENT_OPTIONS: AgreementOptions = {
  threshold: 5,
  overallThreshold: 60,
  iterations: 200,
  seed: 20240601,
  scatterLimit: 2000,
};

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
  /** On each target type's own scale ("score" and each reviewed metric). */
  native: ByTargetType<StatBlock>;
  /** Every target binarised (score ≥ threshold, verdict as is, overall < overallThreshold). */
  binary: BinaryBlock;
}

export interface ReviewerComparison extends JudgeComparison {
  reviewerId: string;
  label: string;
  labelSet?: ReviewerInfo["labelSet"];
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
  /** Presence targets only (present / absent): kappa and percent agreement. */
  presence: StatBlock;
}

export interface HumanAgreement {
  /** Targets rated by two or more reviewers. */
  items: number;
  native: ByTargetType<StatBlock>;
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

/** A swept metric's id (a declared metric with `sweep`, or WORST_TARGET). */
export type SweepMetric = string;

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
  label: string;
  /** The metric's scale, for the axis. */
  domain: [number, number];
  /** The video-list query key that keeps the videos at or above a threshold, when the list has one. */
  filterKey: string | null;
  /** ">=": the judge says hallucination when the value is at or above the threshold; "<": below it (overall). */
  rule: ">=" | "<";
  n: number;
  points: SweepPoint[];
  best: SweepPoint | null;
}

/** The fixed breakdowns ("category" is by declared target); the tasks' declared groupings are added by their ids. */
export const BREAKDOWNS = ["category", "dimension", "model", "endpoint", "promptVersion"] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

export interface BreakdownGroup {
  key: string;
  label: string;
  /** Reviewed targets in the group. */
  items: number;
  /**
   * The declared measurement level of the group's one target (a category's group: nominal, ordinal or interval),
   * which `judge.values.alpha` is taken at; null when the group mixes targets or is a presence target's.
   */
  level: MeasurementLevel | null;
  /**
   * Judge vs reviewers' consensus: binarised accuracy, kappa, F1 (with CIs); Spearman and MAE when the group has
   * one scale; Krippendorff's α at `level` when it has one.
   */
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

export interface ConfusionKind {
  /** A key of `confusion`: "score", a reviewed metric's id, or "all". */
  id: string;
  label: string;
  /** The positive class's name (e.g. "hallucination", "good caption") and the negative's. */
  positive: string;
  negative: string;
  /** The video-list query keys of this metric's judge value and of the reviewers' verdict, when the video list can filter on both. */
  listKeys: { judge: string; human: string } | null;
}

/** One human side's presence labels against the judge's presence at every threshold t. */
export interface PresenceCurve {
  /** "consensus" (the live reviewers'), or a reviewer's id (a label set's `labelset:<id>`). */
  human: string;
  label: string;
  labelSet?: ReviewerInfo["labelSet"];
  /** Presence targets this side labelled that the judge scored. */
  n: number;
  /** At each t: the judge says present when its highest score of the category is ≥ t. */
  points: SweepPoint[];
  /** The point at the report's chosen t. */
  chosen: SweepPoint | null;
  /** The highest F1 (ties: the higher kappa, then the lower t). */
  best: SweepPoint | null;
}

/** Presence targets of one task: the chosen threshold and the whole sweep. */
export interface PresenceReport {
  taskId: string;
  /** The t the rest of the report binarises the judge's presence with. */
  threshold: number;
  defaultThreshold: number;
  rule: string;
  thresholds: number[];
  curves: PresenceCurve[];
}

export interface AgreementReport {
  options: {
    threshold: number;
    overallThreshold: number;
    iterations: number;
    seed: number;
    truth?: "consensus" | "gold";
  };
  /** Judgments taken with the accept-the-judge action were left out (`independent=only`, the default). */
  independentOnly?: boolean;
  /**
   * Score values a presence-first queue stored because the reviewer marked their category absent were
   * counted (`implied=include`); false (the default): only typed values of scores count, and presence is
   * compared through the presence targets.
   */
  impliedIncluded?: boolean;
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
  /** `gold`: the judge against the adjudicated gold values (null when no reviewed target has one). */
  humanVsJudge: { consensus: JudgeComparison; reviewers: ReviewerComparison[]; gold?: JudgeComparison | null };
  humanVsHuman: HumanAgreement;
  /** Per target type ("score", each reviewed metric) and "all". */
  confusion: ByTargetType<ConfusionView> & { all: ConfusionView };
  /** The confusion views in display order (the verdicts first), with what their classes mean, from the declarations. */
  confusionKinds: ConfusionKind[];
  sweep: SweepCurve[];
  /** Per task that declares presence targets: human presence labels against the judge's derived presence, with the threshold sweep. */
  presence: PresenceReport[];
  /** The fixed breakdowns plus one per declared grouping of the tasks in scope. */
  breakdowns: Record<Breakdown, BreakdownGroup[]> & Record<string, BreakdownGroup[]>;
  /** The declared groupings the report breaks down by, with their labels. */
  groupings: { id: string; label: string }[];
  scatter: { total: number; points: ScatterPoint[] };
}
