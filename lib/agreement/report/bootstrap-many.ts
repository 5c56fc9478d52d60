import { quantile, resampler } from "../../stats/bootstrap";
import type { AgreementOptions, Interval } from "../types";

/**
 * Percentile 95% intervals of several statistics over the same item resamples (one draw, many
 * statistics: a resample's confusion counts give accuracy, kappa and F1 together).
 */
export function bootstrapMany(
  n: number,
  names: readonly string[],
  statistic: (sample: Int32Array) => (number | null)[],
  options: AgreementOptions,
): Record<string, Interval | null> {
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
