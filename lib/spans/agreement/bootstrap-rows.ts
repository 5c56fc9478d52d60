/**
 * The point statistics of a comparison and their percentile intervals over videos: each resample draws the
 * comparison's videos with replacement (the one bootstrap's `resampler`, seeded per comparison by `streamSeed`), and
 * the statistics are computed from the resample's summed rows. The draws depend only on the seed, the comparison's key
 * and its number of videos, so a label's interval is the same whichever other labels are computed beside it.
 *
 * Past MAX_RESAMPLED_UNITS videos, the videos are resampled in that many blocks of ⌊n/MAX⌋ or ⌈n/MAX⌉ videos, cut from
 * the videos shuffled by a hash of their ids (`streamSeed`, so the same on every run): a resample of n videos costs n
 * additions of a row per resample, a thousand resamples of 50,000 videos and three pairs some four billion, far past a
 * page's budget. Blocks of videos put together at random are exchangeable sums, so a resample of blocks has the same
 * expected variance as one of single videos, and 1,000 units estimate it about as well as 1,000 videos would. (Blocks
 * of neighbours in id order would not be: ids follow upload order, and videos uploaded together are alike.) Below it,
 * every video is its own unit.
 */
import { percentileInterval, resampler, streamSeed } from "../../stats/bootstrap";
import { LastKept } from "./last-kept";
import { STAT_COUNT, STRIDE, statsOfSums } from "./video-stats";

export interface RowStats {
  /** The rows summed over every video, in video order. */
  total: Float64Array;
  /** `point[label * STAT_COUNT + stat]`, NaN where undefined. */
  point: Float64Array;
  /** Interval bounds, same layout, NaN where no resample defines the statistic. */
  lower: Float64Array;
  upper: Float64Array;
}

/** Resampled units at most: more videos than this are resampled in this many blocks. */
export const MAX_RESAMPLED_UNITS = 1000;

/** The rows of `videos` videos taken in `order`, summed into `units` blocks of consecutive ones in that order. */
function blockRows(rows: Float64Array, order: Int32Array, width: number, units: number): Float64Array {
  const videos = order.length;
  const blocks = new Float64Array(units * width);
  for (let u = 0; u < units; u++) {
    const from = Math.floor((u * videos) / units);
    const to = Math.floor(((u + 1) * videos) / units);
    const out = u * width;
    for (let i = from; i < to; i++) {
      const base = order[i]! * width;
      for (let j = 0; j < width; j++) blocks[out + j]! += rows[base + j]!;
    }
  }
  return blocks;
}

/** `rows` (units × width) column by column: `[j * units + u]` holds `rows[u * width + j]`. */
function transposed(rows: Float64Array, units: number, width: number): Float64Array {
  const columns = new Float64Array(units * width);
  for (let u = 0; u < units; u++) for (let j = 0; j < width; j++) columns[j * units + u] = rows[u * width + j]!;
  return columns;
}

/**
 * Every resample's drawn units, ascending, and how many times each was drawn: resample b holds positions
 * [offsets[b], offsets[b + 1]) of `drawn` and `counts`.
 */
interface Draws {
  offsets: Int32Array;
  drawn: Int32Array;
  /** At most `units` (at most MAX_RESAMPLED_UNITS), so 16 bits hold any. */
  counts: Uint16Array;
}

/**
 * The draws of a comparison: they depend on the seed, its key, its units and the iterations alone, so the whole
 * report and each generator's (1,000 units each past 1,000 videos), and the next request's, draw the same. Drawing
 * them is a quarter of a bootstrap's time; the last 12 are kept (some 4 MB each at 1,000 units).
 */
const keptDraws = new LastKept<Draws>(12);

function drawsOf(seed: number, key: string, units: number, iterations: number): Draws {
  const cacheKey = JSON.stringify([seed, key, units, iterations]);
  const kept = keptDraws.get(cacheKey);
  if (kept) return kept;
  const draw = resampler(streamSeed(seed, key));
  const sample = new Int32Array(units);
  const counted = new Int32Array(units);
  const offsets = new Int32Array(iterations + 1);
  // Room for every unit in every resample; about 63% of them are drawn, and what is is kept in copies of that size.
  const drawn = new Int32Array(iterations * units);
  const counts = new Uint16Array(iterations * units);
  let at = 0;
  for (let b = 0; b < iterations; b++) {
    draw(sample, units);
    counted.fill(0);
    for (let i = 0; i < units; i++) counted[sample[i]!]!++;
    for (let u = 0; u < units; u++) {
      if (counted[u] === 0) continue;
      drawn[at] = u;
      counts[at++] = counted[u]!;
    }
    offsets[b + 1] = at;
  }
  const draws = { offsets, drawn: drawn.slice(0, at), counts: counts.slice(0, at) };
  keptDraws.set(cacheKey, draws);
  return draws;
}

/**
 * `sums[j]` = Σ counts[i] · columns[j · units + drawn[i]] over i = from..to−1 (the drawn units ascending, each drawn
 * counts[i] times), each sum from 0 in that order, for the columns j in `live`; eight columns at a time, so eight
 * independent additions are in flight. The other columns are zero in every unit, and so is their sum.
 */
function weightedColumnSums(
  columns: Float64Array,
  units: number,
  live: Int32Array,
  draws: Draws,
  from: number,
  to: number,
  sums: Float64Array,
): void {
  const { drawn, counts } = draws;
  let g = 0;
  for (; g + 8 <= live.length; g += 8) {
    const b0 = live[g]! * units;
    const b1 = live[g + 1]! * units;
    const b2 = live[g + 2]! * units;
    const b3 = live[g + 3]! * units;
    const b4 = live[g + 4]! * units;
    const b5 = live[g + 5]! * units;
    const b6 = live[g + 6]! * units;
    const b7 = live[g + 7]! * units;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let s5 = 0;
    let s6 = 0;
    let s7 = 0;
    for (let i = from; i < to; i++) {
      const u = drawn[i]!;
      const c = counts[i]!;
      s0 += c * columns[b0 + u]!;
      s1 += c * columns[b1 + u]!;
      s2 += c * columns[b2 + u]!;
      s3 += c * columns[b3 + u]!;
      s4 += c * columns[b4 + u]!;
      s5 += c * columns[b5 + u]!;
      s6 += c * columns[b6 + u]!;
      s7 += c * columns[b7 + u]!;
    }
    sums[live[g]!] = s0;
    sums[live[g + 1]!] = s1;
    sums[live[g + 2]!] = s2;
    sums[live[g + 3]!] = s3;
    sums[live[g + 4]!] = s4;
    sums[live[g + 5]!] = s5;
    sums[live[g + 6]!] = s6;
    sums[live[g + 7]!] = s7;
  }
  // The last few columns one at a time.
  for (; g < live.length; g++) {
    const base = live[g]! * units;
    let sum = 0;
    for (let i = from; i < to; i++) sum += counts[i]! * columns[base + drawn[i]!]!;
    sums[live[g]!] = sum;
  }
}

/** The columns of `columns` (units each) holding a value other than zero: the bootstrap sums only those. */
function liveColumns(columns: Float64Array, units: number, width: number): Int32Array {
  const live: number[] = [];
  for (let j = 0; j < width; j++) if (columns.subarray(j * units, (j + 1) * units).some((x) => x !== 0)) live.push(j);
  return Int32Array.from(live);
}

/** Indices below this fit beside a 32-bit hash in a double's 53-bit integer range. */
const PACKED_INDICES = 2 ** 21;

/**
 * The videos' indices shuffled by a hash of their ids (ties by index): the order blocks are cut from. Each hash and
 * index are packed into one exactly held integer, hash × 2^21 + index, so a numeric sort of the packed values (no
 * comparator to call) gives the order.
 */
export function shuffledOrder(videoIds: readonly string[], seed: number): Int32Array {
  if (videoIds.length > PACKED_INDICES) {
    const hashes = videoIds.map((id) => streamSeed(seed, id));
    return Int32Array.from(videoIds.keys()).sort((a, b) => hashes[a]! - hashes[b]! || a - b);
  }
  const packed = new Float64Array(videoIds.length);
  for (let i = 0; i < packed.length; i++) packed[i] = streamSeed(seed, videoIds[i]!) * PACKED_INDICES + i;
  packed.sort();
  const order = new Int32Array(packed.length);
  for (let i = 0; i < order.length; i++) order[i] = packed[i]! % PACKED_INDICES;
  return order;
}

export interface RowBootstrap {
  iterations: number;
  confidence: number;
  seed: number;
  /** shuffledOrder(videoIds, seed), when the caller has it (comparisons over the same videos share it). */
  shuffled?: (videoIds: readonly string[], seed: number) => Int32Array;
}

/** Statistics of one row of `labels × STRIDE` counts per video, with their bootstrap intervals. */
export function bootstrapRows(
  rows: Float64Array,
  videoIds: readonly string[],
  labels: number,
  key: string,
  options: RowBootstrap,
): RowStats {
  const videos = videoIds.length;
  const width = labels * STRIDE;
  const total = new Float64Array(width);
  for (let v = 0; v < videos; v++) for (let j = 0; j < width; j++) total[j]! += rows[v * width + j]!;
  const point = new Float64Array(labels * STAT_COUNT);
  for (let k = 0; k < labels; k++) statsOfSums(total, k * STRIDE, point, k * STAT_COUNT);

  const { iterations, confidence } = options;
  const units = Math.min(videos, MAX_RESAMPLED_UNITS);
  const order = units < videos ? (options.shuffled ?? shuffledOrder)(videoIds, options.seed) : null;
  const unitRows = order ? blockRows(rows, order, width, units) : rows;
  // replicates[(label * STAT_COUNT + stat) * iterations + b]: each statistic's resamples side by side.
  const replicates = new Float64Array(labels * STAT_COUNT * iterations);
  const draws = drawsOf(options.seed, key, units, iterations);
  const columns = transposed(unitRows, units, width);
  const live = liveColumns(columns, units, width);
  const stats = new Float64Array(STAT_COUNT);
  const sums = new Float64Array(width);
  for (let b = 0; b < iterations; b++) {
    // A weighted sum of the rows (a unit drawn c times counts c times), each column summed over the drawn units in
    // unit order: the same additions in the same order as row by row, with the column's sum held in a register.
    weightedColumnSums(columns, units, live, draws, draws.offsets[b]!, draws.offsets[b + 1]!, sums);
    for (let k = 0; k < labels; k++) {
      statsOfSums(sums, k * STRIDE, stats, 0);
      for (let s = 0; s < STAT_COUNT; s++) replicates[(k * STAT_COUNT + s) * iterations + b] = stats[s]!;
    }
  }
  const lower = new Float64Array(labels * STAT_COUNT).fill(NaN);
  const upper = new Float64Array(labels * STAT_COUNT).fill(NaN);
  for (let i = 0; i < labels * STAT_COUNT; i++) {
    const interval = percentileInterval(replicates.subarray(i * iterations, (i + 1) * iterations), confidence);
    if (!interval) continue;
    lower[i] = interval.lower;
    upper[i] = interval.upper;
  }
  return { total, point, lower, upper };
}
