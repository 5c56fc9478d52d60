/**
 * The Wilson score interval for a proportion (Wilson 1927; Newcombe 1998's method 3, no continuity
 * correction): unlike the normal approximation it stays inside [0, 1] and is sensible at 0 of n and n of n,
 * which small groups of questions (a model × a rare category) often are.
 */

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

export interface ProportionInterval {
  /** successes / n */
  value: number;
  lower: number;
  upper: number;
  n: number;
}

/** k successes of n; null when n is 0 (there is no proportion to bound). */
export function wilsonInterval(successes: number, n: number, z = Z_95): ProportionInterval | null {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || n < 0 || successes > n) {
    throw new RangeError(`wilsonInterval: ${successes} of ${n} is not a count between 0 and n`);
  }
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0 of n and n of n the bound is exactly 0 or 1; rounding must not leave it a hair outside.
  return {
    value: p,
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === n ? 1 : Math.min(1, centre + half),
    n,
  };
}
