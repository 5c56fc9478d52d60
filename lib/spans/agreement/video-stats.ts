/**
 * Each compared video reduces, per label, to a row of counts (spans on each side, matches at each threshold, the sum
 * of matched IoUs, the 2×2 frame table, the sum of box IoUs): every statistic is a function of the rows' sums, so a
 * bootstrap resample of videos is a weighted sum of rows, never a second matching.
 */
import { frameAlpha, frameKappa } from "./frame-agreement";
import { type MatchScratch, type SpanTable, countFramesInto, greedyMatchColumns, matchedBoxIou } from "./match";
import { MEAN_IOU_THRESHOLD, SPAN_IOU_THRESHOLDS } from "./types";

const T = SPAN_IOU_THRESHOLDS.length;

/** Offsets in a label's row. */
export const ROW = {
  referenceSpans: 0,
  predictionSpans: 1,
  matched: 2, // T entries, one per threshold
  iouSum: 2 + T,
  both: 3 + T,
  referenceFrames: 4 + T,
  predictionFrames: 5 + T,
  frames: 6 + T,
  boxSum: 7 + T,
  boxPairs: 8 + T,
} as const;
export const STRIDE = 9 + T;

/** Offsets of the statistics computed from a label's summed row. */
export const STAT = {
  precision: (t: number) => 3 * t,
  recall: (t: number) => 3 * t + 1,
  f1: (t: number) => 3 * t + 2,
  meanIou: 3 * T,
  kappa: 3 * T + 1,
  alpha: 3 * T + 2,
  boxIou: 3 * T + 3,
} as const;
export const STAT_COUNT = 3 * T + 4;

/**
 * Adds one video's counts for one label at `row[offset…]`: the reference spans at rFrom..rTo−1 of `t` against the
 * predicted ones at pFrom..pTo−1; `scratch`: the computation's working arrays.
 */
export function addVideoRow(
  t: SpanTable,
  rFrom: number,
  rTo: number,
  pFrom: number,
  pTo: number,
  frameCount: number,
  row: Float64Array,
  offset: number,
  scratch: MatchScratch,
): void {
  row[offset + ROW.referenceSpans]! += rTo - rFrom;
  row[offset + ROW.predictionSpans]! += pTo - pFrom;
  row[offset + ROW.frames]! += frameCount;
  if (rTo === rFrom && pTo === pFrom) return;
  const matched = greedyMatchColumns(t, rFrom, rTo, pFrom, pTo, scratch);
  for (let m = 0; m < matched; m++) {
    const iou = scratch.matchIou[m]!;
    for (let k = 0; k < T; k++) if (iou >= SPAN_IOU_THRESHOLDS[k]!) row[offset + ROW.matched + k]! += 1;
    if (iou < MEAN_IOU_THRESHOLD) continue;
    row[offset + ROW.iouSum]! += iou;
    const r = scratch.matchR[m]!;
    const p = scratch.matchP[m]!;
    if (!t.boxed[r] || !t.boxed[p]) continue;
    const box = matchedBoxIou(t.spanOf(r), t.spanOf(p));
    if (box !== null) {
      row[offset + ROW.boxSum]! += box;
      row[offset + ROW.boxPairs]! += 1;
    }
  }
  countFramesInto(t, rFrom, rTo, pFrom, pTo, frameCount, scratch);
  row[offset + ROW.both]! += scratch.bothFrames;
  row[offset + ROW.referenceFrames]! += scratch.referenceFrames;
  row[offset + ROW.predictionFrames]! += scratch.predictionFrames;
}

const ratio = (x: number, y: number) => (y > 0 ? x / y : NaN);

/** The 2×2 frame table of a label's summed row. */
export function frameTable(sums: ArrayLike<number>, offset: number) {
  const both = sums[offset + ROW.both]!;
  const referenceOnly = sums[offset + ROW.referenceFrames]! - both;
  const predictionOnly = sums[offset + ROW.predictionFrames]! - both;
  return {
    both,
    referenceOnly,
    predictionOnly,
    neither: sums[offset + ROW.frames]! - both - referenceOnly - predictionOnly,
  };
}

/** Every statistic of a label's summed row into `out[outOffset…]` (NaN where undefined). */
export function statsOfSums(sums: ArrayLike<number>, offset: number, out: Float64Array, outOffset: number): void {
  const reference = sums[offset + ROW.referenceSpans]!;
  const prediction = sums[offset + ROW.predictionSpans]!;
  for (let t = 0; t < T; t++) {
    const matched = sums[offset + ROW.matched + t]!;
    out[outOffset + STAT.precision(t)] = ratio(matched, prediction);
    out[outOffset + STAT.recall(t)] = ratio(matched, reference);
    out[outOffset + STAT.f1(t)] = ratio(2 * matched, reference + prediction);
  }
  out[outOffset + STAT.meanIou] = ratio(sums[offset + ROW.iouSum]!, sums[offset + ROW.matched]!);
  const table = frameTable(sums, offset);
  out[outOffset + STAT.kappa] = frameKappa(table) ?? NaN;
  out[outOffset + STAT.alpha] = frameAlpha(table) ?? NaN;
  out[outOffset + STAT.boxIou] = ratio(sums[offset + ROW.boxSum]!, sums[offset + ROW.boxPairs]!);
}
