/**
 * Agreement on where, per label: between every two people (reviewers and label sets' annotators) and pooled over all
 * of them, and between each judge run and each person, the people pooled, and the gold. A pair compares the videos
 * both raters looked at whose frame count is known; a pooled comparison sums its pairs' counts video by video, so a
 * video is resampled with all its pairs. Pure: the loader (load-span-agreement.ts) reads the rows.
 */
import { parseLabelSetReviewerId } from "../../label-sets/label-set-reviewer";
import { checkedBootstrapOptions } from "../../stats/bootstrap";
import { GOLD_AUTHOR_ID, judgeAuthorId } from "../span-types";
import { bootstrapRows, type RowStats, shuffledOrder } from "./bootstrap-rows";
import { MatchScratch } from "./match";
import { SpanCursor, type SpanStore, storeSpans } from "./span-store";
import {
  MEAN_IOU_THRESHOLD,
  SPAN_IOU_THRESHOLDS,
  type SpanAgreementInput,
  type SpanAgreementOptions,
  type SpanAgreementResult,
  type SpanComparison,
  type SpanComparisonKind,
  type SpanRater,
  type SpanStat,
} from "./types";
import { ROW, STAT, STAT_COUNT, STRIDE, addVideoRow, frameTable } from "./video-stats";

/** A comparison's rows: one of labels × STRIDE counts per video, videos by index in the store (ids ascending). */
export interface PairRows {
  videos: Int32Array;
  rows: Float64Array;
}

interface Plan {
  kind: SpanComparisonKind;
  key: string;
  referenceLabel: string;
  predictionLabel: string;
  members: [SpanRater, SpanRater][];
}

/**
 * A reviewer, or a label set's annotator who is a person: an annotator named as a judge run (`run:<id>`) or the gold
 * is a judge's or the gold's spans carried through a span file, and pooling it with people would count a judge as one.
 */
function isPerson(rater: SpanRater): boolean {
  if (rater.kind === "reviewer") return true;
  if (rater.kind !== "label_set") return false;
  const annotator = parseLabelSetReviewerId(rater.id)?.annotator ?? null;
  return annotator === null || (annotator !== GOLD_AUTHOR_ID && !annotator.startsWith(judgeAuthorId("")));
}

/** Who is compared with whom, in the report's order. */
function plans(raters: readonly SpanRater[]): Plan[] {
  const byId = (a: SpanRater, b: SpanRater) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const people = raters.filter(isPerson).sort(byId);
  const judges = raters.filter((r) => r.kind === "judge").sort(byId);
  const gold = raters.find((r) => r.kind === "gold");
  const out: Plan[] = [];
  const peoplePairs: [SpanRater, SpanRater][] = [];
  for (let i = 0; i < people.length; i++)
    for (let j = i + 1; j < people.length; j++) peoplePairs.push([people[i]!, people[j]!]);
  for (const [a, b] of peoplePairs)
    out.push({
      kind: "people",
      key: `people:${a.id}|${b.id}`,
      referenceLabel: a.label,
      predictionLabel: b.label,
      members: [[a, b]],
    });
  if (peoplePairs.length > 1)
    out.push({
      kind: "people_pooled",
      key: "people:pooled",
      referenceLabel: "people",
      predictionLabel: "people",
      members: peoplePairs,
    });
  for (const judge of judges) {
    for (const person of people)
      out.push({
        kind: "judge_person",
        key: `judge:${judge.id}|${person.id}`,
        referenceLabel: person.label,
        predictionLabel: judge.label,
        members: [[person, judge]],
      });
    if (people.length > 1)
      out.push({
        kind: "judge_people",
        key: `judge:${judge.id}|people`,
        referenceLabel: "people",
        predictionLabel: judge.label,
        members: people.map((p) => [p, judge] as [SpanRater, SpanRater]),
      });
    if (gold)
      out.push({
        kind: "judge_gold",
        key: `judge:${judge.id}|gold`,
        referenceLabel: gold.label,
        predictionLabel: judge.label,
        members: [[gold, judge]],
      });
  }
  return out;
}

/** One pair's rows over the videos both looked at (ids ascending); videos without a frame count go to `leftOut`. */
function pairRows(
  input: SpanAgreementInput,
  store: SpanStore,
  reference: SpanRater,
  prediction: SpanRater,
  leftOut: Set<string>,
): PairRows {
  const a = input.coverage.get(reference.id) ?? new Set<string>();
  const b = input.coverage.get(prediction.id) ?? new Set<string>();
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  const found: number[] = [];
  for (const v of small) {
    if (!large.has(v)) continue;
    const at = store.videoIndex.get(v);
    if (at === undefined) leftOut.add(v);
    else found.push(at);
  }
  const videos = Int32Array.from(found).sort();
  const labels = store.labels;
  const width = labels * STRIDE;
  const rows = new Float64Array(videos.length * width);
  const ofReference = new SpanCursor(store, store.authors.get(reference.id));
  const ofPrediction = new SpanCursor(store, store.authors.get(prediction.id));
  const scratch = new MatchScratch();
  for (let v = 0; v < videos.length; v++) {
    const video = videos[v]!;
    for (let k = 0; k < labels; k++) {
      ofReference.read(video * labels + k);
      ofPrediction.read(video * labels + k);
      addVideoRow(
        store,
        ofReference.from,
        ofReference.to,
        ofPrediction.from,
        ofPrediction.to,
        store.frames[video]!,
        rows,
        v * width + k * STRIDE,
        scratch,
      );
    }
  }
  return { videos, rows };
}

/** A pooled comparison's rows: its pairs' rows summed video by video over the union of their videos. */
function pooledRows(members: readonly PairRows[], width: number, videoCount: number): PairRows {
  if (members.length === 1) return members[0]!;
  const at = new Int32Array(videoCount).fill(-1);
  for (const m of members) for (const v of m.videos) at[v] = 0;
  let n = 0;
  for (let v = 0; v < videoCount; v++) if (at[v] === 0) at[v] = n++;
  const videos = new Int32Array(n);
  for (let v = 0; v < videoCount; v++) if (at[v]! >= 0) videos[at[v]!] = v;
  const rows = new Float64Array(n * width);
  for (const m of members) {
    for (let i = 0; i < m.videos.length; i++) {
      const base = at[m.videos[i]!]! * width;
      for (let j = 0; j < width; j++) rows[base + j]! += m.rows[i * width + j]!;
    }
  }
  return { videos, rows };
}

const stat = (s: RowStats, i: number): SpanStat => ({
  value: Number.isNaN(s.point[i]!) ? null : s.point[i]!,
  ci: Number.isNaN(s.lower[i]!) ? null : [s.lower[i]!, s.upper[i]!],
});

function comparisonOf(plan: Plan, pair: PairRows, stats: RowStats, k: number): SpanComparison {
  const sums = stats.total.subarray(k * STRIDE, (k + 1) * STRIDE);
  const base = k * STAT_COUNT;
  const table = frameTable(sums, 0);
  return {
    kind: plan.kind,
    key: plan.key,
    referenceLabel: plan.referenceLabel,
    predictionLabel: plan.predictionLabel,
    videos: pair.videos.length,
    referenceSpans: sums[ROW.referenceSpans]!,
    predictionSpans: sums[ROW.predictionSpans]!,
    thresholds: SPAN_IOU_THRESHOLDS.map((threshold, t) => ({
      threshold,
      matched: sums[ROW.matched + t]!,
      precision: stat(stats, base + STAT.precision(t)),
      recall: stat(stats, base + STAT.recall(t)),
      f1: stat(stats, base + STAT.f1(t)),
    })),
    meanIou: stat(stats, base + STAT.meanIou),
    frames: { ...table, kappa: stat(stats, base + STAT.kappa), alpha: stat(stats, base + STAT.alpha) },
    boxIou: { ...stat(stats, base + STAT.boxIou), pairs: sums[ROW.boxPairs]! },
  };
}

/** One comparison's rows, matched: its plan and, per video it compares, the video's counts. */
interface ComparisonRows {
  plan: Plan;
  pair: PairRows;
}

/**
 * Every comparison's rows, matched once: the report over all the videos and the report over any part of them (a
 * generator's videos) sum the same rows, since a video's counts depend on that video's spans alone.
 */
export interface MatchedComparisons {
  /** The labels some span marks, in the input's order; the rows' width is their number × STRIDE. */
  labels: readonly { id: string; label: string }[];
  raters: readonly SpanRater[];
  /** The videos with a known frame count, ids ascending: a pair's video indices point into these. */
  videoIds: readonly string[];
  /** Videos some compared pair both looked at whose frame count is unknown. */
  leftOut: ReadonlySet<string>;
  comparisons: readonly ComparisonRows[];
}

/** The key of a pair of raters in MatchedPairs.pairs. */
const pairKey = (reference: SpanRater, prediction: SpanRater) => `${reference.id}\u0000${prediction.id}`;

/**
 * Every pair of raters a comparison reads, matched: what a change to some videos matches again (rematch.ts), since a
 * video's rows depend on its own spans, coverage and frame count alone.
 */
export interface MatchedPairs {
  /** The labels of the rows, in the input's order; the rows' width is their number × STRIDE. */
  labels: readonly { id: string; label: string }[];
  raters: readonly SpanRater[];
  /** The videos with a known frame count, ids ascending: a pair's video indices point into these. */
  videoIds: readonly string[];
  /** Each of videoIds' index. */
  videoIndex: ReadonlyMap<string, number>;
  /** Videos some compared pair both looked at whose frame count is unknown. */
  leftOut: ReadonlySet<string>;
  /** Each pair's rows by pairKey. */
  pairs: ReadonlyMap<string, PairRows>;
}

/** The labels some span of the input marks, in the input's order: labels nobody marked have no comparison to show. */
export function markedLabels(input: SpanAgreementInput): SpanAgreementInput["labels"] {
  const marked = new Set<string>();
  for (const span of input.spans) marked.add(span.label);
  return input.labels.filter((l) => marked.has(l.id));
}

/** Matches every pair of raters some comparison of the input reads, with rows of `labels` (no bootstrap yet). */
export function matchPairs(input: SpanAgreementInput, labels: SpanAgreementInput["labels"]): MatchedPairs {
  input = { ...input, labels };
  const store = storeSpans(input);
  const leftOut = new Set<string>();
  const pairs = new Map<string, PairRows>();
  for (const plan of plans(input.raters))
    for (const [a, b] of plan.members)
      if (!pairs.has(pairKey(a, b))) pairs.set(pairKey(a, b), pairRows(input, store, a, b, leftOut));
  return { labels, raters: input.raters, videoIds: store.videoIds, videoIndex: store.videoIndex, leftOut, pairs };
}

/**
 * One label's matching, cut from a matching of every label: a pair's videos (those both raters looked at) and each
 * video's counts of a label depend on that label's spans alone, so this is what matching its spans alone gives.
 */
export function matchedOfLabel(matched: MatchedPairs, label: string): MatchedPairs {
  const k = matched.labels.findIndex((l) => l.id === label);
  const width = matched.labels.length * STRIDE;
  const pairs = new Map<string, PairRows>();
  for (const [key, { videos, rows }] of matched.pairs) {
    const cut = new Float64Array(k < 0 ? 0 : videos.length * STRIDE);
    if (k >= 0)
      for (let v = 0; v < videos.length; v++)
        cut.set(rows.subarray(v * width + k * STRIDE, v * width + (k + 1) * STRIDE), v * STRIDE);
    pairs.set(key, { videos, rows: cut });
  }
  return { ...matched, labels: k < 0 ? [] : [matched.labels[k]!], pairs };
}

/** The comparisons of matched pairs: a pooled one sums its pairs' rows video by video. */
export function comparisonsOfPairs(matched: MatchedPairs): MatchedComparisons {
  const width = matched.labels.length * STRIDE;
  const comparisons = plans(matched.raters).map((plan) => ({
    plan,
    pair: pooledRows(
      plan.members.map(([a, b]) => matched.pairs.get(pairKey(a, b))!),
      width,
      matched.videoIds.length,
    ),
  }));
  const { labels, raters, videoIds, leftOut } = matched;
  return { labels, raters, videoIds, leftOut, comparisons };
}

/**
 * The matched comparisons split into parts: `partOf(videoId)` names each video's part (0 ≤ part < parts). Each part
 * holds every comparison's rows of its videos, in the same order, and its left-out videos: what matching that part's
 * videos alone gives.
 */
export function splitComparisons(
  matched: MatchedComparisons,
  partOf: (videoId: string) => number,
  parts: number,
): MatchedComparisons[] {
  const partOfIndex = Int32Array.from(matched.videoIds, partOf);
  const leftOut = Array.from({ length: parts }, () => new Set<string>());
  for (const video of matched.leftOut) leftOut[partOf(video)]!.add(video);
  const width = matched.labels.length * STRIDE;
  const split = matched.comparisons.map(({ plan, pair }) => {
    const counts = new Int32Array(parts);
    for (const v of pair.videos) counts[partOfIndex[v]!]!++;
    const pieces = Array.from(counts, (n) => ({ videos: new Int32Array(n), rows: new Float64Array(n * width) }));
    const filled = new Int32Array(parts);
    for (let i = 0; i < pair.videos.length; i++) {
      const part = partOfIndex[pair.videos[i]!]!;
      const at = filled[part]!++;
      pieces[part]!.videos[at] = pair.videos[i]!;
      pieces[part]!.rows.set(pair.rows.subarray(i * width, (i + 1) * width), at * width);
    }
    return pieces.map((piece) => ({ plan, pair: piece }));
  });
  return leftOut.map((videos, part) => ({
    ...matched,
    leftOut: videos,
    comparisons: split.map((pieces) => pieces[part]!),
  }));
}

/** The report of matched comparisons: each one's statistics with bootstrap intervals over its videos. */
export function agreementOfMatched(
  matched: MatchedComparisons,
  options: SpanAgreementOptions = {},
): SpanAgreementResult {
  const { iterations, confidence } = checkedBootstrapOptions(options);
  const seed = options.seed ?? 1;
  const labels = matched.labels.length;
  const perLabel: SpanComparison[][] = matched.labels.map(() => []);
  // Comparisons over the same videos (most of them) share the order their videos are cut into blocks from.
  let last: { videoIds: readonly string[]; order: Int32Array } | null = null;
  const shuffled = (videoIds: readonly string[], s: number) => {
    const same = last?.videoIds.length === videoIds.length && last.videoIds.every((id, i) => id === videoIds[i]);
    if (!same) last = { videoIds, order: shuffledOrder(videoIds, s) };
    return last!.order;
  };
  for (const { plan, pair } of matched.comparisons) {
    if (pair.videos.length === 0) continue;
    const videoIds = Array.from(pair.videos, (v) => matched.videoIds[v]!);
    const stats = bootstrapRows(pair.rows, videoIds, labels, plan.key, { iterations, confidence, seed, shuffled });
    for (let k = 0; k < labels; k++) {
      const comparison = comparisonOf(plan, pair, stats, k);
      if (comparison.referenceSpans + comparison.predictionSpans > 0) perLabel[k]!.push(comparison);
    }
  }
  return {
    matching: "greedy_iou",
    thresholds: [...SPAN_IOU_THRESHOLDS],
    meanIouThreshold: MEAN_IOU_THRESHOLD,
    bootstrap: { iterations, confidence, seed, over: "videos" },
    raters: [...matched.raters],
    videosLeftOut: matched.leftOut.size,
    labels: matched.labels.flatMap((l, k) =>
      perLabel[k]!.length ? [{ label: l.id, name: l.label, comparisons: perLabel[k]! }] : [],
    ),
  };
}
