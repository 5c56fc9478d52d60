/**
 * McNemar's test for two models judging the same cases (questions, videos): only the discordant cases count,
 * b (the first right, the second wrong) and c (the other way round). With few of them (b + c below
 * EXACT_BELOW) the exact two-sided binomial test is used, as the chi-square approximation is poor there;
 * otherwise the chi-square statistic with Edwards' continuity correction, (|b − c| − 1)² / (b + c), on 1 df.
 */

/** Discordant counts below this use the exact binomial test (the usual rule of thumb is 25). */
export const EXACT_BELOW = 25;

export interface McNemarResult {
  /** First right, second wrong. */
  b: number;
  /** First wrong, second right. */
  c: number;
  method: "exact" | "chi_square";
  /** The continuity-corrected chi-square, or null for the exact test. */
  statistic: number | null;
  /** Two-sided; 1 when there are no discordant cases. */
  p: number;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so n in the thousands does not underflow. */
function binomialHalfCdf(k: number, n: number): number {
  let logTerm = -n * Math.LN2; // log P(X = 0)
  let maxLog = logTerm;
  const logs = [logTerm];
  for (let i = 0; i < k; i++) {
    logTerm += Math.log(n - i) - Math.log(i + 1);
    logs.push(logTerm);
    if (logTerm > maxLog) maxLog = logTerm;
  }
  let sum = 0;
  for (const l of logs) sum += Math.exp(l - maxLog);
  return Math.exp(maxLog) * sum;
}

/**
 * The complementary error function (W. J. Cody's rational Chebyshev approximations, relative error
 * below 1e-15 on the ranges used here), for the chi-square survival function on 1 df.
 */
export function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x);
  if (x < 0.5) return 1 - erfSmall(x);
  if (x < 4) {
    const p = [
      3.00459261020161601e2, 4.51918953711872942e2, 3.39320816734343687e2, 1.52989285046940404e2, 4.31622272220567353e1,
      7.21175825088309366, 5.64195517478973971e-1, -1.36864857382716707e-7,
    ];
    const q = [
      3.00459260956983293e2, 7.90950925327898027e2, 9.31354094850609621e2, 6.38980264465631167e2, 2.77585444743987643e2,
      7.7000152935229473e1, 1.27827273196294235e1, 1,
    ];
    let num = 0;
    let den = 0;
    for (let i = p.length - 1; i >= 0; i--) {
      num = num * x + p[i]!;
      den = den * x + q[i]!;
    }
    return Math.exp(-x * x) * (num / den);
  }
  const p = [
    -2.99610707703542174e-3, -4.94730910623250734e-2, -2.2695659353968693e-1, -2.78661308609647788e-1,
    -2.23192459734184686e-2,
  ];
  const q = [1.06209230528467918e-2, 1.91308926107829841e-1, 1.05167510706793207, 1.98733201817135256, 1];
  const z = 1 / (x * x);
  let num = 0;
  let den = 0;
  for (let i = p.length - 1; i >= 0; i--) {
    num = num * z + p[i]!;
    den = den * z + q[i]!;
  }
  return (Math.exp(-x * x) / x) * (1 / Math.sqrt(Math.PI) + (z * num) / den);
}

function erfSmall(x: number): number {
  const p = [
    3.20937758913846947e3, 3.77485237685302021e2, 1.13864154151050156e2, 3.1611237438705656, 1.85777706184603153e-1,
  ];
  const q = [2.84423683343917062e3, 1.28261652607737228e3, 2.44024637934444173e2, 2.36012909523441209e1, 1];
  const z = x * x;
  let num = 0;
  let den = 0;
  for (let i = p.length - 1; i >= 0; i--) {
    num = num * z + p[i]!;
    den = den * z + q[i]!;
  }
  return (x * num) / den;
}

/** McNemar's test from the discordant counts. */
export function mcnemarTest(b: number, c: number): McNemarResult {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new RangeError(`mcnemarTest: b = ${b} and c = ${c} must be counts`);
  const n = b + c;
  if (n === 0) return { b, c, method: "exact", statistic: null, p: 1 };
  if (n < EXACT_BELOW)
    return { b, c, method: "exact", statistic: null, p: Math.min(1, 2 * binomialHalfCdf(Math.min(b, c), n)) };
  const statistic = (Math.abs(b - c) - 1) ** 2 / n;
  // Chi-square with 1 df: P(X² ≥ s) = P(|Z| ≥ √s) = erfc(√(s/2)).
  return { b, c, method: "chi_square", statistic, p: Math.min(1, erfc(Math.sqrt(statistic / 2))) };
}

/** b and c from two models' outcomes on the same cases (true: right); cases either lacks are left out. */
export function discordantCounts(
  first: ReadonlyMap<string, boolean>,
  second: ReadonlyMap<string, boolean>,
): { b: number; c: number; n: number } {
  let b = 0;
  let c = 0;
  let n = 0;
  for (const [caseId, right] of first) {
    const other = second.get(caseId);
    if (other === undefined) continue;
    n += 1;
    if (right && !other) b += 1;
    else if (!right && other) c += 1;
  }
  return { b, c, n };
}
