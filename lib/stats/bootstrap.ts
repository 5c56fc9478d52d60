import { StatsInputError } from "./input-error";
import { type RatingTable, selectItems } from "./rating-table";

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
  const random = mulberry32(options.seed ?? 1);
  const sample = new Int32Array(itemCount);
  const estimates = new Float64Array(iterations);
  let valid = 0;
  for (let b = 0; b < iterations; b++) {
    for (let i = 0; i < itemCount; i++) sample[i] = Math.floor(random() * itemCount);
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

/** The same, for a statistic of a rating table: each resample is the table with its items drawn with replacement. */
export function bootstrapTableStatistic(
  table: RatingTable,
  statistic: (table: RatingTable) => number | null,
  options: BootstrapOptions = {},
): ConfidenceInterval | null {
  return bootstrapConfidenceInterval(table.itemIds.length, (items) => statistic(selectItems(table, items)), options);
}
