import { type BootstrapOptions, checkedBootstrapOptions, mulberry32, quantile } from "./bootstrap";

/**
 * Paired bootstrap of a difference between two systems judged on the same items (two judge runs over
 * the same videos): each resample draws items with replacement and evaluates BOTH statistics on the same
 * draw, so what the items share (an easy video is easy for both) cancels out of the difference.
 *
 * The interval is the percentile interval of the resampled differences. The two-sided p-value asks how
 * often the resampled difference falls on the other side of zero from where most of it lies:
 * p = min(1, 2·min(#{d* ≤ 0} + 1, #{d* ≥ 0} + 1) / (B + 1)), B the resamples on which both statistics
 * were defined (the +1s keep p above 0 with finitely many resamples, as in Davison & Hinkley).
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
  const random = mulberry32(options.seed ?? 1);
  const sample = new Int32Array(itemCount);
  const diffs = new Float64Array(iterations);
  let valid = 0;
  let atOrBelow = 0;
  let atOrAbove = 0;
  for (let r = 0; r < iterations; r++) {
    for (let i = 0; i < itemCount; i++) sample[i] = Math.floor(random() * itemCount);
    const x = a(sample);
    const y = b(sample);
    if (x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    const d = x - y;
    diffs[valid++] = d;
    if (d <= 0) atOrBelow++;
    if (d >= 0) atOrAbove++;
  }
  if (valid === 0) return empty;
  const sorted = diffs.subarray(0, valid).sort();
  const tail = (1 - confidence) / 2;
  return {
    difference,
    lower: quantile(sorted, tail),
    upper: quantile(sorted, 1 - tail),
    p: Math.min(1, (2 * Math.min(atOrBelow + 1, atOrAbove + 1)) / (valid + 1)),
    confidence,
    iterations,
    validIterations: valid,
  };
}
