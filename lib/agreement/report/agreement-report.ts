import { type JudgedDeclaration, judgmentDeclaration, SCORE_TARGET_TYPE, thresholdOverride } from "../../reviews/judgment-target";
import { TASKS } from "../../tasks/registry";
import { isLabelSetReviewerId } from "../../label-sets/label-set-reviewer";
import { binariseValue, consensusValue, judgePresence, PRESENCE_TARGET_TYPE, presenceSweepThresholds, scaleBounds, type TaskDeclaration } from "../../tasks/task-declaration";
import { resampler } from "../../stats/bootstrap";
import { cohensKappa } from "../../stats/cohens-kappa";
import { kendallTauB, pearson, spearman, spearmanOfResamples } from "../../stats/correlation";
import { meanAbsoluteError, rootMeanSquaredError } from "../../stats/error-metrics";
import { fleissKappaFromCounts } from "../../stats/fleiss-kappa";
import { krippendorffAlpha, type MeasurementLevel } from "../../stats/krippendorff-alpha";
import { percentAgreement } from "../../stats/percent-agreement";
import { RatingTableBuilder, type RatingTable } from "../../stats/rating-table";
import {
  BREAKDOWNS,
  type AgreementInput,
  type AgreementItem,
  type AgreementOptions,
  type AgreementReport,
  type BinaryBlock,
  type Breakdown,
  type BreakdownGroup,
  type ByTargetType,
  type Confusion,
  type ConfusionKind,
  type ConfusionView,
  type HumanAgreement,
  type Interval,
  type JudgeComparison,
  type PresenceCurve,
  type PresenceReport,
  type ReviewerInfo,
  type ReviewerPair,
  type ScatterPoint,
  type StatBlock,
  type SweepCurve,
  type SweepPoint,
  type TargetType,
  WORST_TARGET,
} from "../types";

/**
 * The agreement report of a set of judged targets: pure, deterministic (seeded bootstrap), every
 * undefined statistic `null` (never NaN). Human values are compared with the judge's for each
 * reviewer and for the reviewers' consensus (the declared level's: median, or nominal majority),
 * and among reviewers; on each target's own scale (α at its declared level) and binarised by its
 * declared positive rule (thresholds overridable per request).
 */

type Binary = 0 | 1;
type ThresholdOptions = Pick<AgreementOptions, "threshold" | "overallThreshold" | "thresholds">;

/** 1 when the value is the target's positive class (its declared rule, with the request's threshold override). */
export function binarise(targetType: TargetType, value: number, options: ThresholdOptions, declaration?: JudgedDeclaration, tasks: readonly TaskDeclaration[] = TASKS): Binary {
  const target = declaration ?? judgmentDeclaration(targetType, null, tasks);
  return binariseValue(target.positive, value, thresholdOverride(target, options as ThresholdOptions & Record<string, unknown>, tasks));
}

/** Declarations of the report's items, looked up once per (task, target type, target). */
class Declarations {
  private readonly byKey = new Map<string, JudgedDeclaration>();
  constructor(
    readonly tasks: readonly TaskDeclaration[],
    private readonly options: ThresholdOptions,
    /** The human side of the confusion, breakdowns, sweep and scatter: the reviewers' consensus, or the adjudicated gold. */
    private readonly truthSource: "consensus" | "gold" = "consensus",
  ) {}

  private readonly ofItem = new WeakMap<object, JudgedDeclaration>();
  private readonly consensusOfItem = new WeakMap<AgreementItem, number | null>();
  private readonly overrides = new Map<JudgedDeclaration, number | undefined>();

  of(item: Pick<AgreementItem, "taskId" | "targetType" | "category">): JudgedDeclaration {
    const cached = this.ofItem.get(item);
    if (cached) return cached;
    const key = `${item.taskId ?? ""}\u0000${item.targetType}\u0000${item.category}`;
    let declaration = this.byKey.get(key);
    if (!declaration) {
      const own = item.taskId ? this.tasks.filter((t) => t.id === item.taskId) : [];
      const byCategory = item.targetType === SCORE_TARGET_TYPE || item.targetType === PRESENCE_TARGET_TYPE;
      declaration = judgmentDeclaration(item.targetType, byCategory ? item.category : null, own.length ? own : this.tasks);
      this.byKey.set(key, declaration);
    }
    this.ofItem.set(item, declaration);
    return declaration;
  }

  binarise(item: AgreementItem, value: number): Binary {
    const declaration = this.of(item);
    if (!this.overrides.has(declaration)) this.overrides.set(declaration, thresholdOverride(declaration, this.options as ThresholdOptions & Record<string, unknown>, this.tasks));
    return binariseValue(declaration.positive, value, this.overrides.get(declaration));
  }

  /** The reviewers' consensus (an item's ratings do not change while the report is made). */
  consensus(item: AgreementItem): number | null {
    if (this.consensusOfItem.has(item)) return this.consensusOfItem.get(item)!;
    // The live reviewers' consensus: label sets are annotators beside them, compared on their own.
    const value = consensusValue(this.of(item).level, item.ratings.filter((r) => !isLabelSetReviewerId(r.reviewerId)).map((r) => r.value));
    this.consensusOfItem.set(item, value);
    return value;
  }

  /** The human value the judge is measured against in the confusion, breakdowns, sweep and scatter. */
  truth(item: AgreementItem): number | null {
    return this.truthSource === "gold" ? (item.gold ?? null) : this.consensus(item);
  }

  /** Target types in report order: scores, then each task's verdict metric, then its other reviewed metrics. */
  targetTypes(): string[] {
    const types = [SCORE_TARGET_TYPE];
    for (const task of this.tasks) {
      const reviewed = task.metrics.filter((m) => m.reviewed).map((m) => m.id);
      const verdict = task.verdict?.metricId;
      for (const id of [...reviewed.filter((m) => m === verdict), ...reviewed.filter((m) => m !== verdict)]) if (!types.includes(id)) types.push(id);
    }
    if (this.tasks.some((t) => t.presence)) types.push(PRESENCE_TARGET_TYPE);
    return types;
  }

  /** A target type's measurement level: its metric's, or (scores) the level of the items' targets, ordinal when they differ. */
  level(type: string, items: readonly AgreementItem[]): MeasurementLevel {
    if (type === PRESENCE_TARGET_TYPE) return "nominal";
    if (type !== SCORE_TARGET_TYPE) return this.of({ targetType: type, category: type }).level;
    const levels = new Set(items.filter((i) => i.targetType === type).map((i) => this.of(i).level));
    return levels.size === 1 ? [...levels][0]! : "ordinal";
  }

  /** Position of a target or metric id in its task's declaration: targets first, then the verdict, then other metrics. */
  order(id: string): number {
    let base = 0;
    for (const task of this.tasks) {
      const ids = [...task.targets.map((t) => t.id), ...(task.verdict ? [task.verdict.metricId] : []), ...task.metrics.map((m) => m.id).filter((m) => m !== task.verdict?.metricId)];
      const at = ids.indexOf(id);
      if (at >= 0) return base + at;
      base += ids.length;
    }
    return base;
  }
}

const finite = (x: number | null | undefined): number | null => (x === null || x === undefined || !Number.isFinite(x) ? null : x);

// ---------- bootstrap of several statistics at once ----------

/** Hyndman & Fan type 7, as lib/stats/bootstrap.ts. */
function quantile(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Percentile 95% intervals of several statistics over the same item resamples (one draw, many
 * statistics: a resample's confusion counts give accuracy, kappa and F1 together).
 */
function bootstrapMany(n: number, names: readonly string[], statistic: (sample: Int32Array) => (number | null)[], options: AgreementOptions): Record<string, Interval | null> {
  const out: Record<string, Interval | null> = {};
  for (const name of names) out[name] = null;
  if (n < 2 || options.iterations < 1) return out;
  const draw = resampler(options.seed);
  const sample = new Int32Array(n);
  const estimates = names.map(() => new Float64Array(options.iterations));
  const valid = names.map(() => 0);
  for (let b = 0; b < options.iterations; b++) {
    draw(sample, n);
    const values = statistic(sample);
    values.forEach((value, k) => {
      if (value !== null && Number.isFinite(value)) estimates[k]![valid[k]!++] = value;
    });
  }
  names.forEach((name, k) => {
    if (valid[k] === 0) return;
    const sorted = estimates[k]!.subarray(0, valid[k]).sort();
    out[name] = [quantile(sorted, 0.025), quantile(sorted, 0.975)];
  });
  return out;
}

// ---------- binary comparisons ----------

export function confusionOf(truth: ArrayLike<number>, predicted: ArrayLike<number>, sample?: Int32Array): Confusion {
  const c: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const n = sample ? sample.length : truth.length;
  for (let k = 0; k < n; k++) {
    const i = sample ? sample[k]! : k;
    const t = truth[i]!;
    const p = predicted[i]!;
    if (t === 1) {
      if (p === 1) c.tp++;
      else c.fn++;
    } else if (p === 1) c.fp++;
    else c.tn++;
  }
  return c;
}

/** Each pair's cell of the 2 × 2 table (0 tp, 1 fn, 2 fp, 3 tn), for counting resamples of the pairs. */
function confusionCells(truth: ArrayLike<number>, predicted: ArrayLike<number>): Uint8Array {
  const cells = new Uint8Array(truth.length);
  for (let i = 0; i < truth.length; i++) cells[i] = truth[i] === 1 ? (predicted[i] === 1 ? 0 : 1) : predicted[i] === 1 ? 2 : 3;
  return cells;
}

/** confusionOf(truth, predicted, sample) from the pairs' cells: one read per drawn pair. */
function confusionOfSample(cells: Uint8Array, sample: Int32Array): Confusion {
  let tp = 0;
  let fn = 0;
  let fp = 0;
  for (let k = 0; k < sample.length; k++) {
    const cell = cells[sample[k]!]!;
    if (cell === 0) tp++;
    else if (cell === 1) fn++;
    else if (cell === 2) fp++;
  }
  return { tp, fp, fn, tn: sample.length - tp - fn - fp };
}

/** Precision, recall, F1, accuracy and Cohen's kappa of a 2 × 2 table; null where undefined. */
export function binaryMetrics(c: Confusion) {
  const n = c.tp + c.fp + c.fn + c.tn;
  const accuracy = n === 0 ? null : (c.tp + c.tn) / n;
  const chance = n === 0 ? null : ((c.tp + c.fp) * (c.tp + c.fn) + (c.fn + c.tn) * (c.fp + c.tn)) / (n * n);
  const kappa = accuracy === null || chance === null || chance >= 1 ? null : (accuracy - chance) / (1 - chance);
  return {
    precision: c.tp + c.fp === 0 ? null : c.tp / (c.tp + c.fp),
    recall: c.tp + c.fn === 0 ? null : c.tp / (c.tp + c.fn),
    f1: 2 * c.tp + c.fp + c.fn === 0 ? null : (2 * c.tp) / (2 * c.tp + c.fp + c.fn),
    accuracy,
    kappa,
  };
}

function binaryBlock(truth: Uint8Array, predicted: Uint8Array, options: AgreementOptions): BinaryBlock {
  const confusion = confusionOf(truth, predicted);
  const metrics = binaryMetrics(confusion);
  const ciNames = ["accuracy", "kappa", "f1"] as const;
  const cells = confusionCells(truth, predicted);
  const ci = bootstrapMany(truth.length, ciNames, (sample) => {
    const m = binaryMetrics(confusionOfSample(cells, sample));
    return [m.accuracy, m.kappa, m.f1];
  }, options);
  return { n: truth.length, values: { ...metrics }, ci, confusion };
}

// ---------- native-scale comparisons ----------

/** |judge − human| of each pair, as meanAbsoluteError takes them. */
function absoluteErrors(judge: Float64Array, human: Float64Array): Float64Array {
  const errors = new Float64Array(judge.length);
  for (let i = 0; i < judge.length; i++) errors[i] = Math.abs(judge[i]! - human[i]!);
  return errors;
}

/**
 * meanAbsoluteError of a resample's pairs from their absolute errors, read in place (the same sum in the
 * same order as over copies; the values are checked finite by the statistics on all pairs).
 */
function meanOfSample(values: Float64Array, sample: Int32Array): number | null {
  if (sample.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < sample.length; i++) sum += values[sample[i]!]!;
  return sum / sample.length;
}

function alphaOfPairs(a: ArrayLike<number>, b: ArrayLike<number>, level: MeasurementLevel): number | null {
  if (a.length === 0) return null;
  const builder = new RatingTableBuilder();
  for (let i = 0; i < a.length; i++) {
    const item = String(i);
    builder.add(item, "a", a[i]!, i);
    builder.add(item, "b", b[i]!, i);
  }
  return finite(krippendorffAlpha(builder.build(), level));
}

/** Two raters (the judge first) on one scale: weighted kappa, correlations, errors, Krippendorff's alpha at the declared level. */
export function nativeBlock(judge: Float64Array, human: Float64Array, level: MeasurementLevel, options: AgreementOptions): StatBlock {
  const n = judge.length;
  const j = Array.from(judge);
  const h = Array.from(human);
  const values = {
    kappaLinear: n ? finite(cohensKappa(j, h, "linear")) : null,
    kappaQuadratic: n ? finite(cohensKappa(j, h, "quadratic")) : null,
    spearman: n ? finite(spearman(judge, human)) : null,
    kendallTauB: n ? finite(kendallTauB(judge, human)) : null,
    pearson: n ? finite(pearson(judge, human)) : null,
    mae: finite(meanAbsoluteError(judge, human)),
    rmse: finite(rootMeanSquaredError(judge, human)),
    alpha: alphaOfPairs(judge, human, level),
  };
  const resampledSpearman = spearmanOfResamples(judge, human);
  const errors = absoluteErrors(judge, human);
  const ci = bootstrapMany(n, ["spearman", "mae"], (sample) => [resampledSpearman(sample), meanOfSample(errors, sample)], options);
  return { n, values, ci };
}

// ---------- human values ----------

function reviewerValue(reviewerId: string) {
  return (item: AgreementItem) => item.ratings.find((r) => r.reviewerId === reviewerId)?.value ?? null;
}

interface Pair {
  item: AgreementItem;
  judge: number;
  human: number;
}

function pairsOf(items: readonly AgreementItem[], human: (item: AgreementItem) => number | null): Pair[] {
  const pairs: Pair[] = [];
  for (const item of items) {
    if (item.judge === null) continue;
    const value = human(item);
    if (value === null) continue;
    pairs.push({ item, judge: item.judge, human: value });
  }
  return pairs;
}

function binaryArrays(pairs: readonly Pair[], d: Declarations) {
  const truth = new Uint8Array(pairs.length);
  const predicted = new Uint8Array(pairs.length);
  pairs.forEach((p, i) => {
    truth[i] = d.binarise(p.item, p.human);
    predicted[i] = d.binarise(p.item, p.judge);
  });
  return { truth, predicted };
}

function compareWithJudge(items: readonly AgreementItem[], human: (item: AgreementItem) => number | null, options: AgreementOptions, d: Declarations): JudgeComparison {
  const pairs = pairsOf(items, human);
  const native = {} as ByTargetType<StatBlock>;
  for (const type of d.targetTypes()) {
    const ofType = pairs.filter((p) => p.item.targetType === type);
    native[type] = nativeBlock(Float64Array.from(ofType, (p) => p.judge), Float64Array.from(ofType, (p) => p.human), d.level(type, items), options);
  }
  const { truth, predicted } = binaryArrays(pairs, d);
  return { n: pairs.length, native, binary: binaryBlock(truth, predicted, options) };
}

// ---------- among reviewers ----------

interface HumanTable {
  table: RatingTable;
  /** Per item, the count of each category (for Fleiss' kappa, which needs equal counts per item). */
  counts: number[][];
}

function humanTable(items: readonly AgreementItem[], value: (item: AgreementItem, v: number) => number): HumanTable | null {
  const rated = items.filter((item) => item.ratings.length >= 2);
  if (rated.length === 0) return null;
  const builder = new RatingTableBuilder();
  const categories = new Map<number, number>();
  rated.forEach((item, i) => {
    for (const r of item.ratings) {
      const v = value(item, r.value);
      builder.add(String(i), r.reviewerId, v, i);
      if (!categories.has(v)) categories.set(v, categories.size);
    }
  });
  const counts = rated.map((item) => {
    const row = new Array<number>(categories.size).fill(0);
    for (const r of item.ratings) row[categories.get(value(item, r.value))!]! += 1;
    return row;
  });
  return { table: builder.build(), counts };
}

function humanBlock(items: readonly AgreementItem[], value: (item: AgreementItem, v: number) => number, level: MeasurementLevel, options: AgreementOptions, withCi: boolean): StatBlock {
  const t = humanTable(items, value);
  if (!t) return { n: 0, values: { alpha: null, fleiss: null, percentAgreement: null }, ci: { alpha: null } };
  const { table, counts } = t;
  const values = {
    alpha: finite(krippendorffAlpha(table, level)),
    fleiss: finite(fleissKappaFromCounts(counts)),
    percentAgreement: finite(percentAgreement(table)),
  };
  const ci = withCi
    ? bootstrapMany(table.itemIds.length, ["alpha"], (sample) => [krippendorffAlpha(table, level, sample)], options)
    : { alpha: null };
  return { n: table.itemIds.length, values, ci };
}

/**
 * Each judged target once: a judgment counts against every run that scored its target, so the same
 * ratings appear once per run; agreement among reviewers must count them once.
 */
function oncePerTarget(items: readonly AgreementItem[]): AgreementItem[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.targetKey) && (seen.add(item.targetKey), true));
}

function compareReviewers(all: readonly AgreementItem[], reviewers: readonly { id: string; label: string }[], options: AgreementOptions, d: Declarations): HumanAgreement {
  const items = oncePerTarget(all);
  const native = {} as ByTargetType<StatBlock>;
  for (const type of d.targetTypes()) {
    native[type] = humanBlock(items.filter((i) => i.targetType === type), (_, v) => v, d.level(type, items), options, true);
  }
  const binary = humanBlock(items, (item, v) => d.binarise(item, v), "nominal", options, true);
  const pairs: ReviewerPair[] = [];
  for (let x = 0; x < reviewers.length; x++) {
    for (let y = x + 1; y < reviewers.length; y++) {
      const a = reviewers[x]!;
      const b = reviewers[y]!;
      const both: { item: AgreementItem; va: number; vb: number }[] = [];
      for (const item of items) {
        const va = item.ratings.find((r) => r.reviewerId === a.id)?.value;
        const vb = item.ratings.find((r) => r.reviewerId === b.id)?.value;
        if (va !== undefined && vb !== undefined) both.push({ item, va, vb });
      }
      if (both.length === 0) continue;
      const ba = Uint8Array.from(both, (p) => d.binarise(p.item, p.va));
      const bb = Uint8Array.from(both, (p) => d.binarise(p.item, p.vb));
      const m = binaryMetrics(confusionOf(ba, bb));
      const cells = confusionCells(ba, bb);
      const ci = bootstrapMany(both.length, ["kappa"], (sample) => [binaryMetrics(confusionOfSample(cells, sample)).kappa], options);
      const scores = both.filter((p) => p.item.targetType === SCORE_TARGET_TYPE);
      const presence = both.filter((p) => p.item.targetType === PRESENCE_TARGET_TYPE);
      const pa = Uint8Array.from(presence, (p) => d.binarise(p.item, p.va));
      const pb = Uint8Array.from(presence, (p) => d.binarise(p.item, p.vb));
      const pm = binaryMetrics(confusionOf(pa, pb));
      const presenceCells = confusionCells(pa, pb);
      const sa = Float64Array.from(scores, (p) => p.va);
      const sb = Float64Array.from(scores, (p) => p.vb);
      pairs.push({
        a: a.id,
        b: b.id,
        labelA: a.label,
        labelB: b.label,
        binary: { n: both.length, values: { kappa: m.kappa, percentAgreement: m.accuracy }, ci },
        score: {
          n: scores.length,
          values: {
            kappaQuadratic: scores.length ? finite(cohensKappa(Array.from(sa), Array.from(sb), "quadratic")) : null,
            spearman: scores.length ? finite(spearman(sa, sb)) : null,
            mae: finite(meanAbsoluteError(sa, sb)),
          },
          ci: {},
        },
        presence: {
          n: presence.length,
          values: { kappa: presence.length ? pm.kappa : null, percentAgreement: pm.accuracy },
          ci: bootstrapMany(presence.length, ["kappa"], (sample) => [binaryMetrics(confusionOfSample(presenceCells, sample)).kappa], options),
        },
      });
    }
  }
  return { items: items.filter((i) => i.ratings.length >= 2).length, native, binary, pairs };
}

// ---------- confusion views ----------

const CELL_ORDER: [Binary, Binary][] = [[1, 1], [1, 0], [0, 1], [0, 0]];
const CELL_VIDEOS = 20;

function confusionView(items: readonly AgreementItem[], d: Declarations): ConfusionView {
  const cells = CELL_ORDER.map(([human, judge]) => ({ human, judge, count: 0, runs: new Map<string, number>(), videos: new Map<string, { runId: string; videoId: string }>() }));
  let n = 0;
  for (const pair of pairsOf(items, (item) => d.truth(item))) {
    const h = d.binarise(pair.item, pair.human);
    const j = d.binarise(pair.item, pair.judge);
    const cell = cells[CELL_ORDER.findIndex(([a, b]) => a === h && b === j)]!;
    cell.count++;
    n++;
    cell.runs.set(pair.item.runId, (cell.runs.get(pair.item.runId) ?? 0) + 1);
    const key = `${pair.item.runId}:${pair.item.videoId}`;
    if (cell.videos.size < CELL_VIDEOS && !cell.videos.has(key)) cell.videos.set(key, { runId: pair.item.runId, videoId: pair.item.videoId });
  }
  return {
    n,
    cells: cells.map((c) => ({ human: c.human, judge: c.judge, count: c.count, runs: [...c.runs].map(([runId, count]) => ({ runId, count })), videos: [...c.videos.values()] })),
  };
}

// ---------- threshold sweep ----------

/** 21 thresholds across a numeric scale (0–10: steps of 0.5; 0–100: steps of 5); a categorical scale's values. */
export function sweepThresholds(scale: { kind: "numeric"; min: number; max: number } | { kind: "categorical"; values: readonly { value: number }[] }): number[] {
  if (scale.kind === "categorical") return scale.values.map((v) => v.value).sort((a, b) => a - b);
  return Array.from({ length: 21 }, (_, i) => scale.min + (i * (scale.max - scale.min)) / 20);
}

interface SweptMetric {
  id: string;
  label: string;
  rule: ">=" | "<";
  scale: TaskDeclaration["targets"][number]["scale"];
  filterKey: string | null;
}

/**
 * What a task sweeps: its metrics declared `sweep` in declaration order, with the worst-target
 * pseudo-metric after the last one that points the same way as the targets.
 */
function sweptMetrics(task: TaskDeclaration): SweptMetric[] {
  const filterKey = (id: string) => task.queryAliases?.find((a) => a.metric === id && a.bound === "min")?.key ?? `min.${id}`;
  const metrics = task.metrics.filter((m) => m.sweep && m.positive.op !== "==");
  const out: SweptMetric[] = metrics.map((m) => ({ id: m.id, label: m.label, rule: m.positive.op as ">=" | "<", scale: m.scale, filterKey: m.positive.op === ">=" ? filterKey(m.id) : null }));
  const first = task.targets[0];
  if (task.sweepWorstTarget && first && first.positive.op !== "==") {
    const at = metrics.reduce((last, m, i) => (m.higherIsBetter === first.higherIsBetter ? i + 1 : last), 0);
    out.splice(at, 0, { id: WORST_TARGET, label: "worst target", rule: first.positive.op, scale: first.scale, filterKey: null });
  }
  return out;
}

/**
 * The judge's per-video values against the reviewers' consensus on the task's verdict metric: at
 * each threshold the judge says "positive" when the value is ≥ it (or below it, by the metric's
 * declared rule). The best threshold is the one with the highest F1 (ties: the higher kappa, then the first).
 */
function thresholdSweep(items: readonly AgreementItem[], d: Declarations): SweepCurve[] {
  const curves: SweepCurve[] = [];
  for (const task of d.tasks) {
    if (!task.verdict) continue;
    const verdictId = task.verdict.metricId;
    const videos = items
      .filter((i) => i.targetType === verdictId && i.videoValues && (i.taskId ?? task.id) === task.id)
      .map((i) => {
        const truth = d.truth(i);
        return { item: i, truth: truth === null ? null : d.binarise(i, truth) };
      })
      .filter((v) => v.truth !== null);
    for (const metric of sweptMetrics(task)) {
      const rows = videos.map((v) => ({ truth: v.truth!, value: v.item.videoValues![metric.id] ?? null })).filter((r): r is { truth: Binary; value: number } => r.value !== null);
      const truth = Uint8Array.from(rows, (r) => r.truth);
      const points: SweepPoint[] = sweepThresholds(metric.scale).map((threshold) => {
        const predicted = Uint8Array.from(rows, (r) => ((metric.rule === "<" ? r.value < threshold : r.value >= threshold) ? 1 : 0));
        const c = confusionOf(truth, predicted);
        return { threshold, ...c, ...binaryMetrics(c) };
      });
      let best: SweepPoint | null = null;
      for (const p of points) {
        if (p.f1 === null) continue;
        if (!best || p.f1 > best.f1! || (p.f1 === best.f1 && (p.kappa ?? -Infinity) > (best.kappa ?? -Infinity))) best = p;
      }
      const { min, max } = scaleBounds(metric.scale);
      curves.push({ metric: metric.id, label: metric.label, domain: [min, max], filterKey: metric.filterKey, rule: metric.rule, n: rows.length, points, best });
    }
  }
  return curves;
}

// ---------- breakdowns ----------

function groupKeys(item: AgreementItem, breakdown: string, d: Declarations): { key: string; label: string }[] {
  switch (breakdown) {
    case "category": {
      // A category's presence is another target than its graded scores: its own group.
      if (item.targetType === PRESENCE_TARGET_TYPE) return [{ key: `${PRESENCE_TARGET_TYPE}:${item.category}`, label: `${item.category} present` }];
      // A task that groups by its items' own category (a question's) breaks down by that, not by the target.
      const ofItem = item.groups?.category;
      return ofItem !== undefined ? [{ key: ofItem, label: ofItem || "(none)" }] : [{ key: item.category, label: item.category }];
    }
    case "dimension":
      return item.dimensions.length ? item.dimensions.map((d) => ({ key: d, label: d })) : [{ key: "", label: "(none)" }];
    case "model":
      return [{ key: item.model ?? "", label: item.model ?? "(none)" }];
    case "endpoint":
      return [{ key: item.endpointId, label: item.endpointId }];
    case "promptVersion":
      return [{ key: item.promptVersion ?? "", label: item.promptVersion ? shortVersion(item.promptVersion) : "(unknown)" }];
    default: {
      // A declared grouping: a target's group value; a per-video metric forms its own group, as in "category".
      const declaration = d.of(item);
      const ofItem = item.groups?.[breakdown];
      if (item.targetType !== SCORE_TARGET_TYPE && item.targetType !== PRESENCE_TARGET_TYPE && ofItem === undefined) return [{ key: item.category, label: item.category }];
      const value = ofItem ?? ("groups" in declaration ? declaration.groups?.[breakdown] : undefined);
      if (value === undefined) return [{ key: "", label: "(none)" }];
      const label = d.tasks.flatMap((t) => t.groupings).find((g) => g.id === breakdown)?.values.find((v) => v.id === value)?.label ?? value;
      return [{ key: value, label }];
    }
  }
}

function shortVersion(version: string): string {
  return version.split("+").map((h) => h.slice(0, 8)).join("+");
}

function groupLink(breakdown: string, key: string, items: readonly AgreementItem[], input: AgreementInput): Record<string, string> | null {
  const runIds = new Set(items.map((i) => i.runId));
  const run: Record<string, string> = runIds.size === 1 ? { runId: [...runIds][0]! } : {};
  switch (breakdown) {
    case "category":
      // Per-video metrics have no category filter: their group links to the run's list.
      if (items.some((i) => i.targetType !== SCORE_TARGET_TYPE || i.groups?.category !== undefined)) return runIds.size === 1 ? run : null;
      return { ...run, category: key };
    case "dimension":
      return key ? { ...run, dimension: key } : null;
    case "model":
      return key ? { ...run, model: key } : null;
    case "endpoint": {
      const runs = input.runs.filter((r) => r.endpointId === key);
      return runs.length === 1 ? { runId: runs[0]!.id } : null;
    }
    case "promptVersion":
      return runIds.size === 1 ? run : null;
    default:
      return runIds.size === 1 ? run : null;
  }
}

function groupBlock(items: readonly AgreementItem[], options: AgreementOptions, d: Declarations): StatBlock {
  const pairs = pairsOf(items, (item) => d.truth(item));
  const { truth, predicted } = binaryArrays(pairs, d);
  const m = binaryMetrics(confusionOf(truth, predicted));
  const types = new Set(pairs.map((p) => p.item.targetType));
  const oneScale = types.size === 1;
  const judge = Float64Array.from(pairs, (p) => p.judge);
  const human = Float64Array.from(pairs, (p) => p.human);
  const names = oneScale ? ["accuracy", "kappa", "f1", "spearman", "mae"] : ["accuracy", "kappa", "f1"];
  const resampledSpearman = oneScale ? spearmanOfResamples(judge, human) : null;
  const errors = oneScale ? absoluteErrors(judge, human) : null;
  const cells = confusionCells(truth, predicted);
  const ci = bootstrapMany(pairs.length, names, (sample) => {
    const s = binaryMetrics(confusionOfSample(cells, sample));
    if (!resampledSpearman) return [s.accuracy, s.kappa, s.f1];
    return [s.accuracy, s.kappa, s.f1, resampledSpearman(sample), meanOfSample(errors!, sample)];
  }, options);
  return {
    n: pairs.length,
    values: {
      accuracy: m.accuracy,
      kappa: m.kappa,
      f1: m.f1,
      precision: m.precision,
      recall: m.recall,
      spearman: oneScale && pairs.length ? finite(spearman(judge, human)) : null,
      mae: oneScale ? finite(meanAbsoluteError(judge, human)) : null,
    },
    ci,
  };
}

function breakdown(items: readonly AgreementItem[], by: string, input: AgreementInput, options: AgreementOptions, d: Declarations): BreakdownGroup[] {
  const groups = new Map<string, { label: string; items: AgreementItem[] }>();
  for (const item of items) {
    for (const { key, label } of groupKeys(item, by, d)) {
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { label, items: [] }));
      group.items.push(item);
    }
  }
  const endpointNames = new Map(input.runs.map((r) => [r.endpointId, r.endpointName]));
  return [...groups]
    .map(([key, group]) => ({
      key,
      label: by === "endpoint" ? (endpointNames.get(key) ?? key) : group.label,
      items: group.items.length,
      judge: groupBlock(group.items, options, d),
      humans: (() => {
        const b = humanBlock(oncePerTarget(group.items), (item, v) => d.binarise(item, v), "nominal", options, false);
        return { n: b.n, values: { percentAgreement: b.values.percentAgreement ?? null, alpha: b.values.alpha ?? null }, ci: {} };
      })(),
      link: groupLink(by, key, group.items, input),
    }))
    .sort((a, b) => (by === "category" ? d.order(a.key) - d.order(b.key) : groupingOrder(by, a.key, d) - groupingOrder(by, b.key, d)) || a.label.localeCompare(b.label));
}

/** A declared grouping's values in their declared order, then per-video metrics in declaration order; 0 for the fixed breakdowns. */
function groupingOrder(by: string, key: string, d: Declarations): number {
  if ((BREAKDOWNS as readonly string[]).includes(by)) return 0;
  const values = d.tasks.flatMap((t) => t.groupings).find((g) => g.id === by)?.values ?? [];
  const at = values.findIndex((v) => v.id === key);
  return at >= 0 ? at : values.length + d.order(key);
}

// ---------- scatter ----------

function scatter(items: readonly AgreementItem[], limit: number, d: Declarations): { total: number; points: ScatterPoint[] } {
  const pairs = pairsOf(items.filter((i) => i.targetType === SCORE_TARGET_TYPE), (item) => d.truth(item));
  const step = pairs.length > limit ? pairs.length / limit : 1;
  const points: ScatterPoint[] = [];
  for (let k = 0; k < Math.min(limit, pairs.length); k++) {
    const p = pairs[Math.floor(k * step)]!;
    points.push({ judge: p.judge, human: p.human, category: p.item.category, runId: p.item.runId, videoId: p.item.videoId, scopeIndex: p.item.scopeIndex });
  }
  return { total: pairs.length, points };
}

// ---------- confusion kinds ----------

const scaleText = (scale: JudgedDeclaration["scale"]) => (scale.kind === "numeric" ? ` (${scale.min}–${scale.max})` : "");

/**
 * Each target type's confusion view as the declarations name it: the tasks' verdicts first (their
 * cells open the video list filtered on both verdicts), then the scores and the other reviewed metrics.
 */
function confusionKinds(items: readonly AgreementItem[], d: Declarations): ConfusionKind[] {
  const kinds: ConfusionKind[] = [];
  for (const type of d.targetTypes()) {
    if (type === PRESENCE_TARGET_TYPE) {
      kinds.push({ id: type, label: "Presence (per video)", positive: "present", negative: "absent", listKeys: null });
      continue;
    }
    if (type === SCORE_TARGET_TYPE) {
      const declared = [...new Set(items.filter((i) => i.targetType === type).map((i) => d.of(i)))];
      const all = declared.length ? declared : d.tasks.flatMap((t) => t.targets);
      const same = <T,>(pick: (x: JudgedDeclaration) => T) => (all.length && all.every((x) => JSON.stringify(pick(x)) === JSON.stringify(pick(all[0]!))) ? pick(all[0]!) : null);
      const scale = same((x) => x.scale);
      const positive = same((x) => x.positive.label);
      kinds.push({ id: type, label: `Scores${scale ? scaleText(scale) : ""}`, positive: positive ?? "positive", negative: positive ? `not ${positive}` : "negative", listKeys: null });
      continue;
    }
    const metric = d.of({ targetType: type, category: type });
    const task = d.tasks.find((t) => t.metrics.includes(metric as never));
    const isVerdict = task?.verdict?.metricId === type;
    const alias = task?.queryAliases?.find((a) => a.metric === type && a.bound === "is")?.key ?? `is.${type}`;
    const entry: ConfusionKind = {
      id: type,
      label: isVerdict ? `${metric.label} verdicts` : `${metric.label}${scaleText(metric.scale)}`,
      positive: metric.positive.label,
      negative: isVerdict ? "none" : `not ${metric.positive.label}`,
      listKeys: isVerdict && task?.subject === "video" ? { judge: alias, human: "humanVerdict" } : null,
    };
    if (isVerdict) kinds.unshift(entry);
    else kinds.push(entry);
  }
  return kinds;
}

// ---------- presence targets ----------

/** The threshold t of a task's presence targets: the request's, else the task's declared default. */
function presenceThresholdOf(task: TaskDeclaration, options: Pick<AgreementOptions, "presenceThreshold">): number {
  return options.presenceThreshold ?? task.presence!.defaultThreshold;
}

/** Presence items with the judge's presence at the report's threshold (from its highest score of the category). */
function withJudgePresence(items: readonly AgreementItem[], d: Declarations, options: AgreementOptions): AgreementItem[] {
  return items.map((item) => {
    if (item.targetType !== PRESENCE_TARGET_TYPE) return item;
    const task = d.tasks.find((t) => t.id === item.taskId && t.presence) ?? d.tasks.find((t) => t.presence?.of.includes(item.category));
    const score = item.judgeScore ?? null;
    return { ...item, judge: task && score !== null ? judgePresence([score], presenceThresholdOf(task, options)) : null };
  });
}

/**
 * Each human side's presence labels (the live reviewers' consensus, each reviewer, each label set)
 * against the judge's presence at every t of the task's graded scale: "judge ≥ t means present".
 */
function presenceReports(items: readonly AgreementItem[], reviewers: readonly ReviewerInfo[], d: Declarations, options: AgreementOptions): PresenceReport[] {
  const reports: PresenceReport[] = [];
  for (const task of d.tasks) {
    if (!task.presence) continue;
    const threshold = presenceThresholdOf(task, options);
    const thresholds = presenceSweepThresholds(task);
    const ofTask = items.filter((i) => i.targetType === PRESENCE_TARGET_TYPE && (i.taskId ?? task.id) === task.id && i.judgeScore !== null && i.judgeScore !== undefined);
    const sides: { human: string; label: string; labelSet?: ReviewerInfo["labelSet"]; value: (item: AgreementItem) => number | null }[] = [
      { human: "consensus", label: "Reviewers' consensus", value: (item) => d.consensus(item) },
      ...reviewers.map((r) => ({ human: r.id, label: r.label, ...(r.labelSet ? { labelSet: r.labelSet } : {}), value: reviewerValue(r.id) })),
    ];
    const curves: PresenceCurve[] = [];
    for (const side of sides) {
      const rows = ofTask.flatMap((item) => {
        const human = side.value(item);
        return human === null ? [] : [{ truth: d.binarise(item, human), score: item.judgeScore! }];
      });
      if (rows.length === 0) continue;
      const truth = Uint8Array.from(rows, (r) => r.truth);
      const pointAt = (t: number): SweepPoint => {
        const c = confusionOf(truth, Uint8Array.from(rows, (r) => judgePresence([r.score], t)!));
        return { threshold: t, ...c, ...binaryMetrics(c) };
      };
      const points = thresholds.map(pointAt);
      let best: SweepPoint | null = null;
      for (const p of points) {
        if (p.f1 === null) continue;
        if (!best || p.f1 > best.f1! || (p.f1 === best.f1 && (p.kappa ?? -Infinity) > (best.kappa ?? -Infinity))) best = p;
      }
      const { label, labelSet, human } = side;
      curves.push({ human, label, ...(labelSet ? { labelSet } : {}), n: rows.length, points, chosen: points.find((p) => p.threshold === threshold) ?? pointAt(threshold), best });
    }
    reports.push({ taskId: task.id, threshold, defaultThreshold: task.presence.defaultThreshold, rule: `judge ≥ ${threshold} means present (its highest score of the category over key frames, clusters or the video)`, thresholds, curves });
  }
  return reports;
}

// ---------- the report ----------

export function agreementReport(input: AgreementInput, options: AgreementOptions): AgreementReport {
  const d = new Declarations(input.tasks ?? TASKS, options, options.truth ?? "consensus");
  const items = withJudgePresence(input.items.filter((i) => i.ratings.length > 0), d, options);
  const reviewersWithRatings = input.reviewers.filter((r) => items.some((i) => i.ratings.some((x) => x.reviewerId === r.id)));
  const groupings = [...new Map(d.tasks.flatMap((t) => t.groupings).filter((g) => !(BREAKDOWNS as readonly string[]).includes(g.id)).map((g) => [g.id, { id: g.id, label: g.label }])).values()];
  const breakdowns = {} as AgreementReport["breakdowns"];
  for (const by of [...BREAKDOWNS, ...groupings.map((g) => g.id)]) breakdowns[by] = breakdown(items, by, input, options, d);
  const confusion = {} as AgreementReport["confusion"];
  for (const type of d.targetTypes()) confusion[type] = confusionView(items.filter((i) => i.targetType === type), d);
  confusion.all = confusionView(items, d);
  return {
    confusionKinds: [...confusionKinds(items, d), { id: "all", label: "All targets", positive: "positive", negative: "negative", listKeys: null }],
    options: { threshold: options.threshold, overallThreshold: options.overallThreshold, iterations: options.iterations, seed: options.seed, truth: options.truth ?? "consensus" },
    runs: input.runs,
    reviewers: reviewersWithRatings,
    summary: {
      videos: input.videoCount,
      judgeItems: input.judgeItemCount,
      reviewedItems: items.length,
      judgments: oncePerTarget(items).reduce((sum, i) => sum + i.ratings.length, 0),
      reviewedVideos: new Set(items.map((i) => `${i.runId}:${i.videoId}`)).size,
      multiReviewedItems: oncePerTarget(items).filter((i) => i.ratings.length >= 2).length,
      reviewers: reviewersWithRatings.length,
    },
    humanVsJudge: {
      consensus: compareWithJudge(items, (item) => d.consensus(item), options, d),
      // The adjudicated gold is an annotator of its own: never one of the reviewers, never in their consensus.
      gold: items.some((i) => i.gold !== undefined && i.gold !== null) ? compareWithJudge(items, (item) => item.gold ?? null, options, d) : null,
      reviewers: reviewersWithRatings.map((r) => ({ reviewerId: r.id, label: r.label, ...(r.labelSet ? { labelSet: r.labelSet } : {}), ...compareWithJudge(items, reviewerValue(r.id), options, d) })),
    },
    humanVsHuman: compareReviewers(items, reviewersWithRatings, options, d),
    confusion,
    sweep: thresholdSweep(items, d),
    presence: presenceReports(items, reviewersWithRatings, d, options),
    breakdowns,
    groupings,
    scatter: scatter(items, options.scatterLimit, d),
  };
}
