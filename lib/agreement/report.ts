import { consensusOf } from "../reviews/consensus";
import { mulberry32 } from "../stats/bootstrap";
import { cohensKappa } from "../stats/cohens-kappa";
import { kendallTauB, pearson, spearman } from "../stats/correlation";
import { meanAbsoluteError, rootMeanSquaredError } from "../stats/error-metrics";
import { fleissKappaFromCounts } from "../stats/fleiss-kappa";
import { krippendorffAlpha, type MeasurementLevel } from "../stats/krippendorff-alpha";
import { percentAgreement } from "../stats/percent-agreement";
import { RatingTableBuilder, type RatingTable } from "../stats/rating-table";
import {
  BREAKDOWNS,
  type AgreementInput,
  type AgreementItem,
  type AgreementOptions,
  type AgreementReport,
  type BinaryBlock,
  type Breakdown,
  type BreakdownGroup,
  type Confusion,
  type ConfusionView,
  type HumanAgreement,
  type Interval,
  type JudgeComparison,
  type ReviewerPair,
  type ScatterPoint,
  type StatBlock,
  SWEEP_METRICS,
  type SweepCurve,
  type SweepMetric,
  type SweepPoint,
  TARGET_TYPES,
  type TargetType,
} from "./types";

/**
 * The agreement report of a set of judged targets: pure, deterministic (seeded bootstrap), every
 * undefined statistic `null` (never NaN). Human values are compared with the judge's for each
 * reviewer and for the reviewers' consensus (`consensusOf`: median, verdict majority), and among
 * reviewers; on each target's own scale and binarised into hallucination yes/no.
 */

type Binary = 0 | 1;

/** Hallucination yes (1) / no (0): scores at or above the threshold, the verdict as is, overall below its threshold. */
export function binarise(targetType: TargetType, value: number, options: Pick<AgreementOptions, "threshold" | "overallThreshold">): Binary {
  if (targetType === "verdict") return value >= 0.5 ? 1 : 0;
  if (targetType === "overall") return value < options.overallThreshold ? 1 : 0;
  return value >= options.threshold ? 1 : 0;
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
  const random = mulberry32(options.seed);
  const sample = new Int32Array(n);
  const estimates = names.map(() => new Float64Array(options.iterations));
  const valid = names.map(() => 0);
  for (let b = 0; b < options.iterations; b++) {
    for (let i = 0; i < n; i++) sample[i] = Math.floor(random() * n);
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
  const ci = bootstrapMany(truth.length, ciNames, (sample) => {
    const m = binaryMetrics(confusionOf(truth, predicted, sample));
    return [m.accuracy, m.kappa, m.f1];
  }, options);
  return { n: truth.length, values: { ...metrics }, ci, confusion };
}

// ---------- native-scale comparisons ----------

function pick(values: Float64Array, sample: Int32Array): Float64Array {
  const out = new Float64Array(sample.length);
  for (let i = 0; i < sample.length; i++) out[i] = values[sample[i]!]!;
  return out;
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

const LEVEL: Record<TargetType, MeasurementLevel> = { score: "ordinal", verdict: "nominal", overall: "interval" };

/** Two raters (the judge first) on one scale: weighted kappa, correlations, errors, Krippendorff's alpha. */
export function nativeBlock(judge: Float64Array, human: Float64Array, targetType: TargetType, options: AgreementOptions): StatBlock {
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
    alpha: alphaOfPairs(judge, human, LEVEL[targetType]),
  };
  const ci = bootstrapMany(n, ["spearman", "mae"], (sample) => {
    const a = pick(judge, sample);
    const b = pick(human, sample);
    return [spearman(a, b), meanAbsoluteError(a, b)];
  }, options);
  return { n, values, ci };
}

// ---------- human values ----------

function consensus(item: AgreementItem): number | null {
  return consensusOf(item.targetType, item.ratings.map((r) => r.value));
}

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

function binaryArrays(pairs: readonly Pair[], options: AgreementOptions) {
  const truth = new Uint8Array(pairs.length);
  const predicted = new Uint8Array(pairs.length);
  pairs.forEach((p, i) => {
    truth[i] = binarise(p.item.targetType, p.human, options);
    predicted[i] = binarise(p.item.targetType, p.judge, options);
  });
  return { truth, predicted };
}

export function compareWithJudge(items: readonly AgreementItem[], human: (item: AgreementItem) => number | null, options: AgreementOptions): JudgeComparison {
  const pairs = pairsOf(items, human);
  const native = {} as Record<TargetType, StatBlock>;
  for (const type of TARGET_TYPES) {
    const ofType = pairs.filter((p) => p.item.targetType === type);
    native[type] = nativeBlock(Float64Array.from(ofType, (p) => p.judge), Float64Array.from(ofType, (p) => p.human), type, options);
  }
  const { truth, predicted } = binaryArrays(pairs, options);
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
    ? bootstrapMany(table.itemIds.length, ["alpha"], (sample) => [krippendorffAlpha(selectRows(table, sample), level)], options)
    : { alpha: null };
  return { n: table.itemIds.length, values, ci };
}

function selectRows(table: RatingTable, items: Int32Array): RatingTable {
  const nRaters = table.raterIds.length;
  const codes = new Int32Array(items.length * nRaters);
  for (let i = 0; i < items.length; i++) codes.set(table.codes.subarray(items[i]! * nRaters, items[i]! * nRaters + nRaters), i * nRaters);
  return { itemIds: Array.from(items, String), raterIds: table.raterIds, categories: table.categories, categoryValues: table.categoryValues, codes };
}

export function compareReviewers(items: readonly AgreementItem[], reviewers: readonly { id: string; label: string }[], options: AgreementOptions): HumanAgreement {
  const native = {} as Record<TargetType, StatBlock>;
  for (const type of TARGET_TYPES) {
    native[type] = humanBlock(items.filter((i) => i.targetType === type), (_, v) => v, LEVEL[type], options, true);
  }
  const binary = humanBlock(items, (item, v) => binarise(item.targetType, v, options), "nominal", options, true);
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
      const ba = Uint8Array.from(both, (p) => binarise(p.item.targetType, p.va, options));
      const bb = Uint8Array.from(both, (p) => binarise(p.item.targetType, p.vb, options));
      const m = binaryMetrics(confusionOf(ba, bb));
      const ci = bootstrapMany(both.length, ["kappa"], (sample) => [binaryMetrics(confusionOf(ba, bb, sample)).kappa], options);
      const scores = both.filter((p) => p.item.targetType === "score");
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
      });
    }
  }
  return { items: items.filter((i) => i.ratings.length >= 2).length, native, binary, pairs };
}

// ---------- confusion views ----------

const CELL_ORDER: [Binary, Binary][] = [[1, 1], [1, 0], [0, 1], [0, 0]];
const CELL_VIDEOS = 20;

export function confusionView(items: readonly AgreementItem[], options: AgreementOptions): ConfusionView {
  const cells = CELL_ORDER.map(([human, judge]) => ({ human, judge, count: 0, runs: new Map<string, number>(), videos: new Map<string, { runId: string; videoId: string }>() }));
  let n = 0;
  for (const pair of pairsOf(items, consensus)) {
    const h = binarise(pair.item.targetType, pair.human, options);
    const j = binarise(pair.item.targetType, pair.judge, options);
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

export function sweepThresholds(metric: SweepMetric): number[] {
  return metric === "overall" ? Array.from({ length: 21 }, (_, i) => i * 5) : Array.from({ length: 21 }, (_, i) => i * 0.5);
}

/**
 * The judge's per-video values against the reviewers' yes/no verdict consensus: at each threshold the
 * judge says "hallucination" when the value is ≥ it (overall: below it). The best threshold is the one
 * with the highest F1 (ties: the higher kappa, then the first).
 */
export function thresholdSweep(items: readonly AgreementItem[]): SweepCurve[] {
  const videos = items.filter((i) => i.targetType === "verdict" && i.videoValues).map((i) => ({ item: i, truth: consensus(i) })).filter((v) => v.truth !== null);
  return SWEEP_METRICS.map((metric) => {
    const rule = metric === "overall" ? ("<" as const) : (">=" as const);
    const rows = videos.map((v) => ({ truth: v.truth!, value: v.item.videoValues![metric] })).filter((r): r is { truth: number; value: number } => r.value !== null);
    const truth = Uint8Array.from(rows, (r) => (r.truth >= 0.5 ? 1 : 0));
    const points: SweepPoint[] = sweepThresholds(metric).map((threshold) => {
      const predicted = Uint8Array.from(rows, (r) => ((rule === "<" ? r.value < threshold : r.value >= threshold) ? 1 : 0));
      const c = confusionOf(truth, predicted);
      return { threshold, ...c, ...binaryMetrics(c) };
    });
    let best: SweepPoint | null = null;
    for (const p of points) {
      if (p.f1 === null) continue;
      if (!best || p.f1 > best.f1! || (p.f1 === best.f1 && (p.kappa ?? -Infinity) > (best.kappa ?? -Infinity))) best = p;
    }
    return { metric, rule, n: rows.length, points, best };
  });
}

// ---------- breakdowns ----------

function groupKeys(item: AgreementItem, breakdown: Breakdown): { key: string; label: string }[] {
  switch (breakdown) {
    case "category":
      return [{ key: item.category, label: item.category }];
    case "dimension":
      return item.dimensions.length ? item.dimensions.map((d) => ({ key: d, label: d })) : [{ key: "", label: "(none)" }];
    case "model":
      return [{ key: item.model ?? "", label: item.model ?? "(none)" }];
    case "endpoint":
      return [{ key: item.endpointId, label: item.endpointId }];
    case "promptVersion":
      return [{ key: item.promptVersion ?? "", label: item.promptVersion ? shortVersion(item.promptVersion) : "(unknown)" }];
  }
}

function shortVersion(version: string): string {
  return version.split("+").map((h) => h.slice(0, 8)).join("+");
}

function groupLink(breakdown: Breakdown, key: string, items: readonly AgreementItem[], input: AgreementInput): Record<string, string> | null {
  const runIds = new Set(items.map((i) => i.runId));
  const run: Record<string, string> = runIds.size === 1 ? { runId: [...runIds][0]! } : {};
  switch (breakdown) {
    case "category":
      if (key === "verdict" || key === "overall") return runIds.size === 1 ? run : null;
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
  }
}

function groupBlock(items: readonly AgreementItem[], options: AgreementOptions): StatBlock {
  const pairs = pairsOf(items, consensus);
  const { truth, predicted } = binaryArrays(pairs, options);
  const m = binaryMetrics(confusionOf(truth, predicted));
  const types = new Set(pairs.map((p) => p.item.targetType));
  const oneScale = types.size === 1;
  const judge = Float64Array.from(pairs, (p) => p.judge);
  const human = Float64Array.from(pairs, (p) => p.human);
  const names = oneScale ? ["accuracy", "kappa", "f1", "spearman", "mae"] : ["accuracy", "kappa", "f1"];
  const ci = bootstrapMany(pairs.length, names, (sample) => {
    const s = binaryMetrics(confusionOf(truth, predicted, sample));
    if (!oneScale) return [s.accuracy, s.kappa, s.f1];
    const a = pick(judge, sample);
    const b = pick(human, sample);
    return [s.accuracy, s.kappa, s.f1, spearman(a, b), meanAbsoluteError(a, b)];
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

export function breakdown(items: readonly AgreementItem[], by: Breakdown, input: AgreementInput, options: AgreementOptions): BreakdownGroup[] {
  const groups = new Map<string, { label: string; items: AgreementItem[] }>();
  for (const item of items) {
    for (const { key, label } of groupKeys(item, by)) {
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
      judge: groupBlock(group.items, options),
      humans: (() => {
        const b = humanBlock(group.items, (item, v) => binarise(item.targetType, v, options), "nominal", options, false);
        return { n: b.n, values: { percentAgreement: b.values.percentAgreement ?? null, alpha: b.values.alpha ?? null }, ci: {} };
      })(),
      link: groupLink(by, key, group.items, input),
    }))
    .sort((a, b) => (by === "category" ? categoryOrder(a.key) - categoryOrder(b.key) : 0) || a.label.localeCompare(b.label));
}

function categoryOrder(category: string): number {
  const m = /^([sd])(\d+)$/.exec(category);
  if (m) return (m[1] === "s" ? 0 : 100) + Number(m[2]);
  return category === "inconsistency" ? 200 : category === "verdict" ? 300 : 400;
}

// ---------- scatter ----------

function scatter(items: readonly AgreementItem[], limit: number): { total: number; points: ScatterPoint[] } {
  const pairs = pairsOf(items.filter((i) => i.targetType === "score"), consensus);
  const step = pairs.length > limit ? pairs.length / limit : 1;
  const points: ScatterPoint[] = [];
  for (let k = 0; k < Math.min(limit, pairs.length); k++) {
    const p = pairs[Math.floor(k * step)]!;
    points.push({ judge: p.judge, human: p.human, category: p.item.category, runId: p.item.runId, videoId: p.item.videoId, scopeIndex: p.item.scopeIndex });
  }
  return { total: pairs.length, points };
}

// ---------- the report ----------

export function agreementReport(input: AgreementInput, options: AgreementOptions): AgreementReport {
  const items = input.items.filter((i) => i.ratings.length > 0);
  const reviewersWithRatings = input.reviewers.filter((r) => items.some((i) => i.ratings.some((x) => x.reviewerId === r.id)));
  const breakdowns = {} as Record<Breakdown, BreakdownGroup[]>;
  for (const by of BREAKDOWNS) breakdowns[by] = breakdown(items, by, input, options);
  const ofType = (type: TargetType) => items.filter((i) => i.targetType === type);
  return {
    options: { threshold: options.threshold, overallThreshold: options.overallThreshold, iterations: options.iterations, seed: options.seed },
    runs: input.runs,
    reviewers: reviewersWithRatings,
    summary: {
      videos: input.videoCount,
      judgeItems: input.judgeItemCount,
      reviewedItems: items.length,
      judgments: items.reduce((sum, i) => sum + i.ratings.length, 0),
      reviewedVideos: new Set(items.map((i) => `${i.runId}:${i.videoId}`)).size,
      multiReviewedItems: items.filter((i) => i.ratings.length >= 2).length,
      reviewers: reviewersWithRatings.length,
    },
    humanVsJudge: {
      consensus: compareWithJudge(items, consensus, options),
      reviewers: reviewersWithRatings.map((r) => ({ reviewerId: r.id, label: r.label, ...compareWithJudge(items, reviewerValue(r.id), options) })),
    },
    humanVsHuman: compareReviewers(items, reviewersWithRatings, options),
    confusion: {
      verdict: confusionView(ofType("verdict"), options),
      score: confusionView(ofType("score"), options),
      overall: confusionView(ofType("overall"), options),
      all: confusionView(items, options),
    },
    sweep: thresholdSweep(items),
    breakdowns,
    scatter: scatter(items, options.scatterLimit),
  };
}
