/**
 * The one bootstrap of FrameJury: the seeded generator and its streams, item resampling, percentile intervals
 * and the paired-bootstrap p-value. The agreement report, the alignment and calibration comparisons and the
 * generator leaderboard all draw, interpolate and test through these functions, so the same data and seed give
 * the same numbers whichever of them shows it.
 *
 * The paired p-value (`pairedBootstrapP`), over the B resampled differences d*₁…d*_B that are defined:
 *
 *   p = min(1, 2 · min(#{d* ≤ 0} + 1, #{d* ≥ 0} + 1) / (B + 1))
 *
 * the two-sided Monte Carlo p-value of "no difference" (Davison & Hinkley 1997, §4.2): how often the resampled
 * difference falls on the other side of zero from where most of it lies, doubled. The +1s count the observed
 * sample among the resamples, so p is never 0 with finitely many resamples and its smallest value, 2/(B + 1),
 * is the smallest two-sided p the resamples can show.
 */
import { StatsInputError } from "./input-error";

/**
 * mulberry32: a 32-bit-state generator, small and fast, with good enough statistical quality for
 * resampling. Seeded so that a confidence interval is the same on every run and machine.
 * Returns floats in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * FNV-1a of a label over the seed: one independent, reproducible stream per label (a leaderboard's dimension and
 * prompt set, a pair of generators), so a stream's draws do not depend on which other streams are drawn.
 */
export function streamSeed(seed: number, label: string): number {
  let hash = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 16777619) >>> 0;
  return hash;
}

/**
 * Bootstrap resamples of indices in [0, n), drawn as `Math.floor(mulberry32(seed)() * n)` one after the
 * other (the same draws), with the generator inlined: a resample of a few thousand items is drawn
 * hundreds of times per statistic, and a call per draw was a third of the agreement report's bootstrap.
 */
export function resampler(seed: number): (sample: Int32Array, n: number) => void {
  let state = seed >>> 0;
  return (sample, n) => {
    for (let i = 0; i < sample.length; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      sample[i] = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    }
  };
}

export interface BootstrapOptions {
  /** Number of resamples; 1000 is the usual minimum for a 95% percentile interval. */
  iterations?: number;
  seed?: number;
  /** Coverage of the interval, e.g. 0.95. */
  confidence?: number;
}

export interface ConfidenceInterval {
  lower: number;
  upper: number;
  confidence: number;
  iterations: number;
  /** Resamples on which the statistic was defined; the others (a resample of constant ratings, say) are left out. */
  validIterations: number;
}

/** Linear interpolation between order statistics (Hyndman & Fan type 7, the R and NumPy default). */
export function quantile(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * The percentile interval at `confidence` of the replicates that are defined (NaN: undefined on that resample),
 * sorted in a copy so `replicates` keeps its order; null when none is defined.
 */
export function percentileInterval(
  replicates: Float64Array,
  confidence: number,
): { lower: number; upper: number; valid: number } | null {
  const sorted = replicates.filter((x) => !Number.isNaN(x)).sort();
  if (sorted.length === 0) return null;
  const tail = (1 - confidence) / 2;
  return { lower: quantile(sorted, tail), upper: quantile(sorted, 1 - tail), valid: sorted.length };
}

/**
 * The two-sided paired-bootstrap p-value of "no difference" from resampled differences (NaN: undefined on that
 * resample, left out of B): p = min(1, 2·min(#{d* ≤ 0} + 1, #{d* ≥ 0} + 1) / (B + 1)); null when B = 0.
 */
export function pairedBootstrapP(differences: ArrayLike<number>): number | null {
  let valid = 0;
  let atOrBelow = 0;
  let atOrAbove = 0;
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i]!;
    if (Number.isNaN(d)) continue;
    valid++;
    if (d <= 0) atOrBelow++;
    if (d >= 0) atOrAbove++;
  }
  return valid === 0 ? null : Math.min(1, (2 * Math.min(atOrBelow + 1, atOrAbove + 1)) / (valid + 1));
}

/** The resample count and confidence level of `options` (defaults 1000 and 0.95), refused when unusable. */
export function checkedBootstrapOptions(options: BootstrapOptions): { iterations: number; confidence: number } {
  const iterations = options.iterations ?? 1000;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(iterations) || iterations < 1)
    throw new StatsInputError("iterations must be a positive integer");
  if (!(confidence > 0 && confidence < 1)) throw new StatsInputError("confidence must be between 0 and 1");
  return { iterations, confidence };
}

/**
 * Percentile bootstrap interval over items: each resample draws `itemCount` item indices with replacement
 * and hands them to `statistic`. Items, not single ratings, are resampled because ratings of one item are
 * not independent. `null` when there are no items or the statistic is undefined on every resample.
 */
export function bootstrapConfidenceInterval(
  itemCount: number,
  statistic: (items: Int32Array) => number | null,
  options: BootstrapOptions = {},
): ConfidenceInterval | null {
  const { iterations, confidence } = checkedBootstrapOptions(options);
  if (itemCount === 0) return null;
  const draw = resampler(options.seed ?? 1);
  const sample = new Int32Array(itemCount);
  const estimates = new Float64Array(iterations);
  let valid = 0;
  for (let b = 0; b < iterations; b++) {
    draw(sample, itemCount);
    const value = statistic(sample);
    if (value !== null && Number.isFinite(value)) estimates[valid++] = value;
  }
  if (valid === 0) return null;
  const sorted = estimates.subarray(0, valid).sort();
  const tail = (1 - confidence) / 2;
  return {
    lower: quantile(sorted, tail),
    upper: quantile(sorted, 1 - tail),
    confidence,
    iterations,
    validIterations: valid,
  };
}

/**
 * Paired bootstrap of a difference between two systems judged on the same items (two judge runs over
 * the same videos): each resample draws items with replacement and evaluates BOTH statistics on the same
 * draw, so what the items share (an easy video is easy for both) cancels out of the difference.
 *
 * The interval is the percentile interval of the resampled differences and p is `pairedBootstrapP` of them,
 * B the resamples on which both statistics were defined.
 */
export interface PairedBootstrapResult {
  /** a − b on the items as they are; null when either is undefined there. */
  difference: number | null;
  lower: number | null;
  upper: number | null;
  p: number | null;
  confidence: number;
  iterations: number;
  validIterations: number;
}

export function pairedBootstrapDifference(
  itemCount: number,
  a: (items: Int32Array) => number | null,
  b: (items: Int32Array) => number | null,
  options: BootstrapOptions = {},
): PairedBootstrapResult {
  const { iterations, confidence } = checkedBootstrapOptions(options);
  const all = Int32Array.from({ length: itemCount }, (_, i) => i);
  const full = (f: (items: Int32Array) => number | null) => {
    const v = itemCount === 0 ? null : f(all);
    return v === null || !Number.isFinite(v) ? null : v;
  };
  const fa = full(a);
  const fb = full(b);
  const difference = fa === null || fb === null ? null : fa - fb;
  const empty = { difference, lower: null, upper: null, p: null, confidence, iterations, validIterations: 0 };
  if (itemCount === 0) return empty;
  const draw = resampler(options.seed ?? 1);
  const sample = new Int32Array(itemCount);
  const diffs = new Float64Array(iterations);
  let valid = 0;
  for (let r = 0; r < iterations; r++) {
    draw(sample, itemCount);
    const x = a(sample);
    const y = b(sample);
    if (x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    diffs[valid++] = x - y;
  }
  const defined = diffs.subarray(0, valid);
  const interval = percentileInterval(defined, confidence);
  if (!interval) return empty;
  return {
    difference,
    lower: interval.lower,
    upper: interval.upper,
    p: pairedBootstrapP(defined),
    confidence,
    iterations,
    validIterations: valid,
  };
}
