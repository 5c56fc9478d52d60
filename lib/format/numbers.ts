/**
 * How the app shows numbers: one precision per kind of number, on every page and in every tooltip.
 * Exports (CSV, JSON) keep full precision; only what people read goes through here.
 *
 * - agreement statistics (κ, α, ρ, τ, F1, accuracy as a proportion, MAE, p-values aside): 2 decimals
 * - p-values: 3 decimals, "< 0.001" below that
 * - percentages: 1 decimal, from a proportion (0.1234 → "12.3%")
 * - judge and reviewer scores (0–10, overall 0–100, a VBench-2.0 dimension 0–1, a mean of them): at most 2
 *   decimals, trailing zeros dropped ("75", "5.1", "7.25", "5.13"; never "75.0" or "5.10"): a judge's 7.25 or an
 *   expected score of 1.38 reads as it was given, and the same value never reads two ways. Every score display goes through
 *   formatScore, a declared target's or metric's value through formatValue (lib/task-modules/task-declaration.ts),
 *   which uses it; no page passes its own precision.
 * - costs: US dollars with 4 decimals
 * - seconds of video: 2 decimals
 */

/** What a missing or undefined number reads as. */
export const MISSING = "—";

const isMissing = (value: number | null | undefined): value is null | undefined =>
  value === null || value === undefined || Number.isNaN(value);

export const STATISTIC_DIGITS = 2;
export const PERCENT_DIGITS = 1;
export const SCORE_DIGITS = 2;
export const COST_DIGITS = 4;
export const SECONDS_DIGITS = 2;

/** κ, α, correlations, F1, MAE, accuracy as a proportion. */
export function formatStatistic(value: number | null | undefined): string {
  return isMissing(value) ? MISSING : value.toFixed(STATISTIC_DIGITS);
}

/** A 95% interval of a statistic: "[0.41, 0.73]"; "" when there is none. */
export function formatInterval(ci: readonly [number, number] | null | undefined): string {
  return ci ? `[${ci[0].toFixed(STATISTIC_DIGITS)}, ${ci[1].toFixed(STATISTIC_DIGITS)}]` : "";
}

/** A proportion (0–1) as a percentage: 0.1234 → "12.3%". */
export function formatPercent(proportion: number | null | undefined): string {
  return isMissing(proportion) ? MISSING : `${(proportion * 100).toFixed(PERCENT_DIGITS)}%`;
}

/** A judge's or reviewer's score: 7 → "7", 5.10 → "5.1", 6.25 → "6.25", 5.125 → "5.13". */
export function formatScore(value: number | null | undefined): string {
  if (isMissing(value)) return MISSING;
  // Number() drops the trailing zeros toFixed leaves ("5.10" → 5.1, "6.00" → 6); -0 reads as 0.
  return String(Number(value.toFixed(SCORE_DIGITS)) || 0);
}

/** A cost in US dollars: 0.01234 → "$0.0123". */
export function formatCost(usd: number | null | undefined): string {
  return isMissing(usd) ? MISSING : `$${usd.toFixed(COST_DIGITS)}`;
}

/** A p-value: 0.0421 → "0.042", 0.0004 → "< 0.001". */
export function formatPValue(p: number | null | undefined): string {
  if (isMissing(p)) return MISSING;
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** A time in a video, in seconds: 1.5 → "1.50 s". */
export function formatSeconds(seconds: number | null | undefined): string {
  return isMissing(seconds) ? MISSING : `${seconds.toFixed(SECONDS_DIGITS)} s`;
}

/** A size in bytes in binary units, as messages and logs show it ("512 bytes", "1.5 MiB", "20 GiB"). */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
