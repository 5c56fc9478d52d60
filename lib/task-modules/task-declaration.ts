import { formatScore, MISSING } from "../format/numbers";
/**
 * What a judge task scores, declared once by the task and read by everything downstream: the video
 * list's columns and filters, the score panel and heat map, review queues, disagreement and
 * consensus, the agreement report and the exports. Modelled on Langfuse's score configs (a name, a
 * data type, min/max or categories) plus what agreement statistics need: a measurement level, a
 * direction and a rule for "positive" when a value is binarised.
 *
 * Plain data and pure functions: the browser imports it too.
 */

/** Krippendorff's levels; they pick the α distance and whether a median or a majority is the consensus. */
export type MeasurementLevel = "nominal" | "ordinal" | "interval" | "ratio";

export type Scale =
  /** Numbers from min to max; `step` null means any number in between (a judge may answer 6.5). */
  | { kind: "numeric"; min: number; max: number; step: number | null }
  /** Named values, stored as numbers (binary: yes = 1, no = 0). */
  | { kind: "categorical"; values: readonly { value: number; label: string }[] };

/**
 * When a value counts as the positive class once binarised (e.g. "hallucination present"). The
 * threshold is the default; reports may override it per request.
 */
export type PositiveRule =
  { op: ">="; threshold: number } | { op: "<"; threshold: number } | { op: "=="; value: number };

/** Where in the subject a target's values come from, and so which frames a person should look at. */
export type TargetScope = "video" | "key_frame" | "cluster" | "item";

export interface TargetDeclaration {
  /** Stable id, stored with every score and judgment of the target (e.g. "s7", "verdict", "style"). */
  id: string;
  /** Short name shown wherever the id appears. */
  label: string;
  /** The definition people decide by; shown beside every control and in the legend. */
  definition: string;
  scale: Scale;
  level: MeasurementLevel;
  /** Is a higher value better? (A hallucination intensity is not; a caption score is.) */
  higherIsBetter: boolean;
  scope: TargetScope;
  /** What "positive" means when the target is binarised, and its label ("hallucination"). */
  positive: PositiveRule & { label: string };
  /**
   * A reviewer disagrees with the judge when the values differ by at least this. Defaults to a fifth
   * of a numeric scale's range (two careful humans differ by less) and 1 on a categorical scale.
   */
  disagreementGap?: number;
  /**
   * An ensemble run (self-consistency samples or a judge panel, lib/ensembles) flags a score unstable when its
   * members spread this much: their SD on a numeric scale (default: the disagreement gap), the entropy of
   * their values in bits on a categorical scale (default 0.8: a 3-to-2 split of five, or any 2-to-1 split).
   */
  unstableAt?: number;
  /** Values of the declared groupings this target belongs to, e.g. { kind: "static" }. */
  groups?: Record<string, string>;
  /** False for a value people do not give themselves (the judge's raw score before a rule): queues leave it out. */
  reviewable?: boolean;
}

/** A per-subject headline number computed from the targets' values (for hallucination: S, D, I, overall, verdict). */
export interface MetricDeclaration extends Omit<TargetDeclaration, "scope" | "groups"> {
  /** How the metric is computed from target values, in words, for people. */
  aggregation: string;
  /** Reviewers give their own value for it (stored as a judgment whose target type is the metric id). */
  reviewed?: boolean;
  /**
   * The key of the metric in the pipeline's stored per-subject summary when it is not the metric id
   * (a yes/no metric may be stored as a boolean there). See summaryMetricValues in ./task-display.
   */
  summaryKey?: string;
  /** The agreement report sweeps thresholds of it against the reviewers' verdict (needs a ">=" or "<" positive rule). */
  sweep?: boolean;
}

/** A request parameter of the agreement report that overrides the positive rule's threshold of some targets and metrics. */
export interface ThresholdParam {
  key: string;
  /** Ids of the targets and metrics whose threshold it sets. */
  ids: readonly string[];
}

export interface GroupingDeclaration {
  id: string;
  label: string;
  /** The group values in display order, with a label for each. */
  values: readonly { id: string; label: string }[];
  /** The value is the judged item's `group` (a caption's type), not fixed per target. */
  ofItem?: boolean;
  /** The value is this field of the judged item's payload (a question's `format`), not fixed per target. */
  itemField?: string;
}

/**
 * A query key older links and API clients use for a metric's filter, e.g. `sMin` for `min.S`.
 * Declared by the task that introduced it, so generic code never names it.
 */
export interface QueryAlias {
  key: string;
  metric: string;
  /** `min`/`max`: a numeric bound; `is`: a value of a categorical scale, by label or number. */
  bound: "min" | "max" | "is";
}

/**
 * Per-subject presence targets derived from graded ones: "is this category in the video at all?",
 * answered by people as present (1) / absent (0), as a benchmark's annotators label a video ("s7; d6,
 * d5"). The judge never answers it directly: its presence is read off its graded scores of the
 * category (the maximum over the category's scopes: key frames, clusters, the video) through a
 * threshold t, "judge ≥ t means present". Agreement compares both at a chosen t and sweeps t.
 */
export interface PresenceDeclaration {
  /** The graded targets (video-subject targets of a numeric scale) that have a presence target. */
  of: readonly string[];
  /** The graded value that means "not present": a reviewer's "absent" stores it for the category's scores. */
  absentValue: number;
  /** How the judge's presence follows from its scores (the only rule so far). */
  judgeRule: "max over scopes >= t";
  /** t when a request names none. */
  defaultThreshold: number;
}

/** Human judgments of a presence target carry this target type (the target is the graded target's id). */
export const PRESENCE_TARGET_TYPE = "presence";

const presenceByTask = new WeakMap<TaskDeclaration, Map<string, TargetDeclaration>>();

/**
 * The presence target of one of the task's graded targets, as a declaration of its own (a yes/no
 * scale: present 1, absent 0, nominal), or undefined when the task declares no presence for it.
 * The same object each time, so declarations can be compared by identity.
 */
export function presenceTargetOf(task: TaskDeclaration, targetId: string): TargetDeclaration | undefined {
  if (!task.presence?.of.includes(targetId)) return undefined;
  let byId = presenceByTask.get(task);
  if (!byId) presenceByTask.set(task, (byId = new Map()));
  let declared = byId.get(targetId);
  if (!declared) {
    const graded = task.targets.find((t) => t.id === targetId);
    if (!graded) return undefined;
    declared = {
      id: graded.id,
      label: graded.label,
      definition: graded.definition,
      scale: {
        kind: "categorical",
        values: [
          { value: 1, label: "present" },
          { value: 0, label: "absent" },
        ],
      },
      level: "nominal",
      higherIsBetter: graded.higherIsBetter,
      scope: "video",
      positive: { op: "==", value: 1, label: "present" },
      disagreementGap: 1,
      ...(graded.groups ? { groups: graded.groups } : {}),
    };
    byId.set(targetId, declared);
  }
  return declared;
}

/**
 * The judge's presence of a category from its graded scores of it (any scopes): present (1) when
 * the maximum reaches t, absent (0) below, null when the judge gave no score of it.
 */
export function judgePresence(scores: readonly number[], threshold: number): 0 | 1 | null {
  if (scores.length === 0) return null;
  return Math.max(...scores) >= threshold ? 1 : 0;
}

/** The thresholds a presence sweep tries: every whole number of the graded scale (0–10: 0, 1, …, 10). */
export function presenceSweepThresholds(task: TaskDeclaration): number[] {
  const graded = task.targets.find((t) => task.presence?.of.includes(t.id));
  if (!graded || graded.scale.kind !== "numeric") return [];
  const { min, max } = graded.scale;
  return Array.from({ length: Math.floor(max) - Math.ceil(min) + 1 }, (_, i) => Math.ceil(min) + i);
}

/**
 * What a task judges: "video", the video itself, or the kind of item attached to a video that the task
 * judges (its own word, say a caption): the core knows only "video".
 */
export type SubjectKind = "video" | (string & {});

export interface TaskDeclaration {
  /** The pipeline id that produces this task's scores. */
  id: string;
  label: string;
  subject: SubjectKind;
  targets: readonly TargetDeclaration[];
  metrics: readonly MetricDeclaration[];
  /** The metric that is the task's yes/no verdict, when it has one, and its rule in words. */
  verdict?: { metricId: string; rule: string };
  groupings: readonly GroupingDeclaration[];
  /** Legacy query keys for the metrics' filters (see QueryAlias). */
  queryAliases?: readonly QueryAlias[];
  /**
   * The steps that score the targets: their template hashes are the per-subject metrics' prompt
   * version, and blind review withholds their outputs.
   */
  metricSteps?: readonly string[];
  /** Also sweep the worst target value of a subject (the highest, or the lowest when higher is better). */
  sweepWorstTarget?: boolean;
  /** Named threshold parameters of the agreement report (see ThresholdParam). */
  thresholdParams?: readonly ThresholdParam[];
  /**
   * Targets scored once per entry of a list (a caption's key points): their score categories are
   * `<prefix><n>` (e.g. "kp:3", the third key point), all on the target's scale.
   */
  indexedTargets?: readonly { prefix: string; targetId: string }[];
  /**
   * The scope of each of the pipeline's steps (as in its definition; a test keeps them equal), so code
   * that runs in the browser knows which frames a step looked at without loading the pipeline.
   */
  stepScopes?: Readonly<Record<string, TargetScope>>;
  /**
   * Each run's output is its own subject: reviewers judge the answer one run gave (a QA run's answer to a
   * question), not the item alone. A judgment is then keyed with that run (`subjectRunId`, `|r:<runId>` in
   * its key), compared with that run only, and broken down by the run's model.
   */
  subjectPerRun?: boolean;
  /** Per-subject presence targets of graded targets (see PresenceDeclaration). */
  presence?: PresenceDeclaration;
  /** The labels of its spans (lib/spans/span-labels.ts) when not its reviewable targets. */
  spanLabels?: readonly { id: string; label: string; definition: string }[];
}

/** The id of the declared target a score category belongs to ("kp:3" → "key_point"), or the category itself. */
export function targetIdOfCategory(task: Pick<TaskDeclaration, "indexedTargets">, category: string): string {
  const indexed = task.indexedTargets?.find(
    (t) => category.startsWith(t.prefix) && /^\d+$/.test(category.slice(t.prefix.length)),
  );
  return indexed ? indexed.targetId : category;
}

/** A categorical scale of exactly yes (1) and no (0): such a metric is answered as a boolean. */
export function isYesNoScale(scale: Scale): boolean {
  if (scale.kind !== "categorical" || scale.values.length !== 2) return false;
  const label = (value: number) => scale.values.find((v) => v.value === value)?.label;
  return label(1) === "yes" && label(0) === "no";
}

export function scaleBounds(scale: Scale): { min: number; max: number } {
  if (scale.kind === "numeric") return { min: scale.min, max: scale.max };
  const values = scale.values.map((v) => v.value);
  return { min: Math.min(...values), max: Math.max(...values) };
}

export function disagreementGapOf(target: Pick<TargetDeclaration, "scale" | "disagreementGap">): number {
  if (target.disagreementGap !== undefined) return target.disagreementGap;
  if (target.scale.kind === "categorical") return 1;
  return (target.scale.max - target.scale.min) / 5;
}

export function disagrees(
  target: Pick<TargetDeclaration, "scale" | "disagreementGap">,
  value: number,
  judgeValue: number | null,
): boolean {
  if (judgeValue === null) return false;
  return Math.abs(value - judgeValue) >= disagreementGapOf(target) - 1e-9;
}

/** The spread at which an ensemble's members make a score unstable (see TargetDeclaration.unstableAt). */
export function unstableAtOf(target: Pick<TargetDeclaration, "scale" | "disagreementGap" | "unstableAt">): number {
  if (target.unstableAt !== undefined) return target.unstableAt;
  return target.scale.kind === "categorical" ? 0.8 : disagreementGapOf(target);
}

/** 1 when the value is the positive class, else 0; `threshold` overrides the declared one. */
export function binariseValue(rule: PositiveRule, value: number, threshold?: number): 0 | 1 {
  switch (rule.op) {
    case ">=":
      return value >= (threshold ?? rule.threshold) ? 1 : 0;
    case "<":
      return value < (threshold ?? rule.threshold) ? 1 : 0;
    case "==":
      return value === rule.value ? 1 : 0;
  }
}

/** Why a value is not on the target's scale, or null when it is. Out-of-range values are refused, never clamped. */
export function scaleViolation(target: Pick<TargetDeclaration, "label" | "scale">, value: number): string | null {
  if (!Number.isFinite(value)) return `${target.label}: the value must be a number.`;
  const scale = target.scale;
  if (scale.kind === "categorical") {
    return scale.values.some((v) => v.value === value)
      ? null
      : `${target.label}: ${value} is not one of ${scale.values.map((v) => `${v.value} (${v.label})`).join(", ")}.`;
  }
  if (value < scale.min || value > scale.max) return `${target.label}: ${value} is outside ${scale.min}–${scale.max}.`;
  if (scale.step !== null) {
    const steps = (value - scale.min) / scale.step;
    if (Math.abs(steps - Math.round(steps)) > 1e-9)
      return `${target.label}: ${value} is not a multiple of ${scale.step} from ${scale.min}.`;
  }
  return null;
}

/**
 * The reviewers' consensus on one target: the majority on a nominal scale (a tie is no consensus,
 * never a coin toss), otherwise the median, so one outlying reviewer moves it least.
 */
export function consensusValue(level: MeasurementLevel, values: readonly number[]): number | null {
  if (values.length === 0) return null;
  if (level === "nominal") {
    const counts = new Map<number, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    if (ranked.length > 1 && ranked[0]![1] === ranked[1]![1]) return null;
    return ranked[0]![0];
  }
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The value's label on a categorical scale, else the number as every score reads (lib/format/numbers formatScore). */
export function formatValue(target: Pick<TargetDeclaration, "scale">, value: number | null | undefined): string {
  if (value === null || value === undefined) return MISSING;
  if (target.scale.kind === "categorical")
    return target.scale.values.find((v) => v.value === value)?.label ?? String(value);
  return formatScore(value);
}

/**
 * The id of a reviewed metric (a metric people give their own value for, e.g. a verdict), as a type: any
 * declared metric's id, so the contract names no task (each task exports its own ids' union for its code).
 */
export type ReviewedMetricId = string;

export function targetOf(task: TaskDeclaration, id: string): TargetDeclaration | undefined {
  return task.targets.find((t) => t.id === id);
}

export function metricOf(task: TaskDeclaration, id: string): MetricDeclaration | undefined {
  return task.metrics.find((m) => m.id === id);
}
