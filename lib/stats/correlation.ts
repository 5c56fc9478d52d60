import { StatsInputError } from "./input-error";

function checkPaired(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length)
    throw new StatsInputError(`the two samples differ in length (${x.length} and ${y.length})`);
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]!) || !Number.isFinite(y[i]!))
      throw new StatsInputError(`pair ${i} is not a pair of finite numbers`);
  }
  return x.length;
}

/**
 * Pearson's product-moment r. Two passes (means, then centred sums) rather than the one-pass sum of
 * products, which loses most of its digits on ratings far from zero. `null` for fewer than two pairs or a
 * constant sample (no variance, r undefined).
 */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const n = checkPaired(x, y);
  return pearsonUnchecked(x, y, n);
}

function pearsonUnchecked(x: ArrayLike<number>, y: ArrayLike<number>, n: number): number | null {
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  const r = sxy / Math.sqrt(sxx * syy);
  // Rounding can push a perfect correlation a few ulps past ±1.
  return Math.max(-1, Math.min(1, r));
}

// Above this many distinct values a hash set costs more than sorting a copy of the sample.
const SET_LIMIT = 4096;

/**
 * The distinct values of a sample, ascending. Ratings usually take a handful of values, so a set of them
 * (one pass, no sort of the whole sample) is the fast path; samples with many distinct values fall back to
 * a typed-array sort (numeric, no comparator calls) and a dedup pass.
 */
function distinctSorted(values: ArrayLike<number>): Float64Array {
  const seen = new Set<number>();
  for (let i = 0; i < values.length; i++) {
    seen.add(values[i]!);
    if (seen.size > SET_LIMIT) return distinctBySorting(values);
  }
  return Float64Array.from(seen).sort();
}

function distinctBySorting(values: ArrayLike<number>): Float64Array {
  const sorted = Float64Array.from(values).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
  }
  return sorted.subarray(0, distinct);
}

function indexIn(sortedDistinct: Float64Array, value: number): number {
  let lo = 0;
  let hi = sortedDistinct.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sortedDistinct[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A sample as order-preserving integer ranks: `ranks[i]` is in [0, levels), equal values share a rank and a
 * larger value has a larger rank. Gaps (levels no value takes) are allowed, so the category codes of a
 * `RatingTable`, which are ranks of the sorted categories, can be used as they are.
 */
export interface Ranking {
  ranks: Int32Array;
  levels: number;
}

/** Dense ranks (0 for the smallest value, no gaps) of a sample of finite numbers. */
export function ranking(values: ArrayLike<number>): Ranking {
  const distinct = distinctSorted(values);
  const ranks = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) ranks[i] = indexIn(distinct, values[i]!);
  return { ranks, levels: distinct.length };
}

function checkRankings(x: Ranking, y: Ranking): number {
  if (x.ranks.length !== y.ranks.length) {
    throw new StatsInputError(`the two samples differ in length (${x.ranks.length} and ${y.ranks.length})`);
  }
  return x.ranks.length;
}

/**
 * 1-based fractional ranks: each level's ratings share the mean of the positions they span. Ratings take few distinct
 * values, so counting per distinct value (a `ranking`) beats sorting indices with a comparator by a wide margin on
 * large samples.
 */
export function averageRanksOf({ ranks, levels }: Ranking): Float64Array {
  const counts = new Float64Array(levels);
  for (let i = 0; i < ranks.length; i++) counts[ranks[i]!]! += 1;
  const rankOf = new Float64Array(levels);
  let before = 0;
  for (let g = 0; g < levels; g++) {
    const c = counts[g]!;
    rankOf[g] = before + (c + 1) / 2;
    before += c;
  }
  const out = new Float64Array(ranks.length);
  for (let i = 0; i < ranks.length; i++) out[i] = rankOf[ranks[i]!]!;
  return out;
}

/**
 * Spearman's rho: Pearson's r of the average ranks, which handles ties (the textbook 1 − 6Σd²/(n(n²−1))
 * holds only without them). `null` for fewer than two pairs or a constant sample.
 */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  checkPaired(x, y);
  return spearmanOfRankings(ranking(x), ranking(y));
}

/** Spearman's rho of two samples already given as rankings (e.g. a rating table's category codes). */
/**
 * Spearman's ρ of resamples (index lists, with repeats) of fixed pairs, for the bootstrap: the pairs
 * are ranked once, and a resample's average ranks are counted over each side's distinct values, with
 * no sort per resample. The same number as `spearman` of the resampled values (levels no resample
 * value falls on add nothing to the ranks before them).
 */
export function spearmanOfResamples(x: ArrayLike<number>, y: ArrayLike<number>): (sample: Int32Array) => number | null {
  checkPaired(x, y);
  const rx = ranking(x);
  const ry = ranking(y);
  // Called once per bootstrap resample: the per-level buffers are reused, and the resample's average
  // ranks are read through the level tables instead of being copied out. The centred sums are taken
  // in the same order as spearmanOfRankings of the copied ranks; the means come from the level counts,
  // which is the same number: average ranks are multiples of ½ and their sum stays below n², so every
  // partial sum is exact in either order (while n² < 2⁵², which the guard keeps).
  const countsX = new Float64Array(rx.levels);
  const countsY = new Float64Array(ry.levels);
  const rankOfX = new Float64Array(rx.levels);
  const rankOfY = new Float64Array(ry.levels);
  const ranksX = rx.ranks;
  const ranksY = ry.ranks;
  return (sample) => {
    const n = sample.length;
    if (n < 2) return null;
    if (n >= 1 << 26)
      return spearmanOfRankings(
        { ranks: Int32Array.from(sample, (k) => ranksX[k]!), levels: rx.levels },
        { ranks: Int32Array.from(sample, (k) => ranksY[k]!), levels: ry.levels },
      );
    countsX.fill(0);
    countsY.fill(0);
    for (let i = 0; i < n; i++) {
      const k = sample[i]!;
      countsX[ranksX[k]!]! += 1;
      countsY[ranksY[k]!]! += 1;
    }
    const mx = averageRanksOfCounts(countsX, rankOfX) / n;
    const my = averageRanksOfCounts(countsY, rankOfY) / n;
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    for (let i = 0; i < n; i++) {
      const k = sample[i]!;
      const dx = rankOfX[ranksX[k]!]! - mx;
      const dy = rankOfY[ranksY[k]!]! - my;
      sxy += dx * dy;
      sxx += dx * dx;
      syy += dy * dy;
    }
    if (sxx === 0 || syy === 0) return null;
    const r = sxy / Math.sqrt(sxx * syy);
    return Math.max(-1, Math.min(1, r));
  };
}

/** averageRanksOf from the count of each level: each level's average rank into `rankOf`; returns the sum of all ranks. */
function averageRanksOfCounts(counts: Float64Array, rankOf: Float64Array): number {
  let before = 0;
  let sum = 0;
  for (let g = 0; g < counts.length; g++) {
    const c = counts[g]!;
    rankOf[g] = before + (c + 1) / 2;
    sum += c * rankOf[g]!;
    before += c;
  }
  return sum;
}

export function spearmanOfRankings(x: Ranking, y: Ranking): number | null {
  const n = checkRankings(x, y);
  if (n < 2) return null;
  return pearsonUnchecked(averageRanksOf(x), averageRanksOf(y), n);
}

/** Σ t(t−1)/2 over runs of equal values in a sorted sequence: the pairs tied within runs. */
function tiedPairsInRuns(sorted: ArrayLike<number>): number {
  let pairs = 0;
  let run = 1;
  for (let i = 1; i <= sorted.length; i++) {
    if (i < sorted.length && sorted[i] === sorted[i - 1]) run++;
    else {
      pairs += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  return pairs;
}

/**
 * Number of pairs i < j with a[i] > a[j] (equal values are not inversions), counted by a bottom-up merge
 * sort that leaves `a` sorted.
 */
function countInversions(a: Int32Array): number {
  const n = a.length;
  let source: Int32Array = a;
  let target: Int32Array = new Int32Array(n);
  let inversions = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (source[j]! < source[i]!) {
          inversions += mid - i;
          target[k++] = source[j++]!;
        } else target[k++] = source[i++]!;
      }
      while (i < mid) target[k++] = source[i++]!;
      while (j < hi) target[k++] = source[j++]!;
    }
    const swap = source;
    source = target;
    target = swap;
  }
  if (source !== a) a.set(source);
  return inversions;
}

/**
 * Kendall's tau-b, (C − D) / √((n₀ − n₁)(n₀ − n₂)), in O(n log n) by Knight's (1966) method: sort the pairs
 * by x then y, count pairs tied in x (n₁) and in both (n₃), then count discordant pairs D as the inversions
 * of y left by a merge sort (pairs tied in x are already in y order, so they add none); n₂ comes from the
 * y value counts and C = n₀ − n₁ − n₂ + n₃ − D. `null` for fewer than two pairs or a constant sample.
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  checkPaired(x, y);
  return kendallTauBOfRankings(ranking(x), ranking(y));
}

/** Kendall's tau-b of two samples already given as rankings (e.g. a rating table's category codes). */
export function kendallTauBOfRankings(x: Ranking, y: Ranking): number | null {
  const n = checkRankings(x, y);
  if (n < 2) return null;
  const { ySorted, tiedX, tiedBoth } =
    x.levels * y.levels <= Math.max(n, 1 << 16)
      ? sortPairsByCounting(x.ranks, y.ranks, x.levels, y.levels)
      : sortPairsByKey(x.ranks, y.ranks, y.levels);
  const yCounts = new Float64Array(y.levels);
  for (let i = 0; i < n; i++) yCounts[y.ranks[i]!]! += 1;
  let tiedY = 0;
  for (let v = 0; v < y.levels; v++) tiedY += (yCounts[v]! * (yCounts[v]! - 1)) / 2;
  const totalPairs = (n * (n - 1)) / 2;
  const denominator = (totalPairs - tiedX) * (totalPairs - tiedY);
  if (denominator === 0) return null;
  const discordant = countInversions(ySorted);
  const concordant = totalPairs - tiedX - tiedY + tiedBoth - discordant;
  const tau = (concordant - discordant) / Math.sqrt(denominator);
  return Math.max(-1, Math.min(1, tau));
}

interface SortedPairs {
  /** y ranks with the pairs ordered by x rank, then y rank. */
  ySorted: Int32Array;
  /** Pairs tied in x (n₁), and tied in both x and y (n₃). */
  tiedX: number;
  tiedBoth: number;
}

/**
 * Orders the pairs with a counting sort over the (x rank, y rank) grid: linear time when the grid is small,
 * which it is for ratings on a fixed scale (11 × 11 cells for 0–10), and the cell counts give n₁ and n₃.
 */
function sortPairsByCounting(
  xRanks: Int32Array,
  yRanks: Int32Array,
  xDistinct: number,
  yDistinct: number,
): SortedPairs {
  const n = xRanks.length;
  const cells = new Float64Array(xDistinct * yDistinct);
  for (let i = 0; i < n; i++) cells[xRanks[i]! * yDistinct + yRanks[i]!]! += 1;
  const ySorted = new Int32Array(n);
  let tiedX = 0;
  let tiedBoth = 0;
  let k = 0;
  for (let xr = 0; xr < xDistinct; xr++) {
    let inRow = 0;
    for (let yr = 0; yr < yDistinct; yr++) {
      const count = cells[xr * yDistinct + yr]!;
      tiedBoth += (count * (count - 1)) / 2;
      inRow += count;
      ySorted.fill(yr, k, k + count);
      k += count;
    }
    tiedX += (inRow * (inRow - 1)) / 2;
  }
  return { ySorted, tiedX, tiedBoth };
}

/**
 * Orders the pairs by one float key per pair (x rank × base + y rank; exact while below 2⁵³, which holds for
 * any sample that fits in memory) and a typed-array sort, for samples with many distinct values.
 */
function sortPairsByKey(xRanks: Int32Array, yRanks: Int32Array, yDistinct: number): SortedPairs {
  const n = xRanks.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = xRanks[i]! * yDistinct + yRanks[i]!;
  keys.sort();
  const ySorted = new Int32Array(n);
  const xSorted = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    const xr = Math.floor(key / yDistinct);
    xSorted[i] = xr;
    ySorted[i] = key - xr * yDistinct;
  }
  return { ySorted, tiedX: tiedPairsInRuns(xSorted), tiedBoth: tiedPairsInRuns(keys) };
}
