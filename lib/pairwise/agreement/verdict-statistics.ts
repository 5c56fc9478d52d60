import type { Verdict } from "../verdicts";

/**
 * The agreement statistics of two raters' verdicts on the same pairs, and Krippendorff's α among any number of
 * raters. Pure arithmetic over verdict codes; pairing, resampling and rows are the callers' (preference-agreement.ts).
 *
 * The accuracies follow GenAI-Bench (TIGER-AI-Lab/GenAI-Bench, inference.py `parse_response`, at f0b0334): a judge's
 * vote is correct when it is the human's vote among A>B, B>A, A=B=Good, A=B=Bad (four-way). The three-way figure
 * merges the two ties (a tie is a tie, good or bad); the two-way figure counts only the pairs both raters said A or B
 * on, as GenAI-Bench's "without ties" figures do.
 */

/** Verdict codes: 0 A, 1 B, 2 tie_good, 3 tie_bad. */
export const VERDICT_CODES: ReadonlyMap<Verdict, number> = new Map<Verdict, number>([
  ["A", 0],
  ["B", 1],
  ["tie_good", 2],
  ["tie_bad", 3],
]);
const CATEGORIES = 4;

export function verdictCode(verdict: Verdict): number {
  const code = VERDICT_CODES.get(verdict);
  if (code === undefined) throw new RangeError(`unknown verdict ${JSON.stringify(verdict)}`);
  return code;
}

/** Both raters' verdict codes on one pair and aspect. */
export interface CodedPair {
  a: number;
  b: number;
}

export interface VerdictStatistics {
  accuracy4: number | null;
  accuracy3: number | null;
  accuracy2: number | null;
  cohenKappa: number | null;
  krippendorffAlpha: number | null;
  /** Pairs counted by the four- and three-way figures, κ and α. */
  n: number;
  /** Pairs both raters said A or B on: the two-way figure's n. */
  n2: number;
}

const isTie = (code: number) => code >= 2;

/**
 * The 4 × 4 confusion matrix (row: the first rater's verdict, column: the second's) of the pairs given (repeats
 * count again, as in a resample).
 */
export function confusionOf(pairs: readonly CodedPair[]): Float64Array {
  const confusion = new Float64Array(CATEGORIES * CATEGORIES);
  for (const { a, b } of pairs) confusion[a * CATEGORIES + b]! += 1;
  return confusion;
}

/**
 * The figures from the confusion matrix alone: every one of them is a function of it, so a bootstrap sums the
 * prompts' matrices instead of visiting their verdicts.
 */
export function statisticsOfConfusion(confusion: Float64Array): VerdictStatistics {
  let n = 0;
  let same4 = 0;
  let same3 = 0;
  let n2 = 0;
  let same2 = 0;
  for (let a = 0; a < CATEGORIES; a++) {
    for (let b = 0; b < CATEGORIES; b++) {
      const count = confusion[a * CATEGORIES + b]!;
      n += count;
      if (a === b) same4 += count;
      if (a === b || (isTie(a) && isTie(b))) same3 += count;
      if (!isTie(a) && !isTie(b)) {
        n2 += count;
        if (a === b) same2 += count;
      }
    }
  }
  return {
    accuracy4: n === 0 ? null : same4 / n,
    accuracy3: n === 0 ? null : same3 / n,
    accuracy2: n2 === 0 ? null : same2 / n2,
    cohenKappa: cohenKappa(confusion, n),
    krippendorffAlpha: alphaFromCoincidences(twoRaterCoincidences(confusion)),
    n,
    n2,
  };
}

/**
 * Cohen's κ over the four verdicts: (p_o − p_e) / (1 − p_e), p_e from each rater's own marginals; null when there
 * is no pair or both raters gave one and the same verdict throughout (p_e = 1: agreement by chance is certain).
 */
function cohenKappa(confusion: Float64Array, n: number): number | null {
  if (n === 0) return null;
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < CATEGORIES; c++) {
    observed += confusion[c * CATEGORIES + c]!;
    let row = 0;
    let column = 0;
    for (let d = 0; d < CATEGORIES; d++) {
      row += confusion[c * CATEGORIES + d]!;
      column += confusion[d * CATEGORIES + c]!;
    }
    expected += (row / n) * (column / n);
  }
  if (expected >= 1) return null;
  return (observed / n - expected) / (1 - expected);
}

/** Two raters and no missing value: every pair is a unit of two values, each ordered pair counted with weight 1. */
function twoRaterCoincidences(confusion: Float64Array): Float64Array {
  const o = new Float64Array(CATEGORIES * CATEGORIES);
  for (let c = 0; c < CATEGORIES; c++) {
    for (let d = 0; d < CATEGORIES; d++) {
      const count = confusion[c * CATEGORIES + d]!;
      o[c * CATEGORIES + d]! += count;
      o[d * CATEGORIES + c]! += count;
    }
  }
  return o;
}

/**
 * Krippendorff's coincidence matrix of units with any number of values (Krippendorff 2011, "Computing
 * Krippendorff's Alpha-Reliability"): each ordered pair of values from different raters in a unit of m values adds
 * 1 / (m − 1); units of fewer than two values are not pairable and add nothing.
 */
export function coincidences(units: readonly (readonly number[])[]): Float64Array {
  const o = new Float64Array(CATEGORIES * CATEGORIES);
  for (const values of units) {
    const m = values.length;
    if (m < 2) continue;
    const weight = 1 / (m - 1);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) if (i !== j) o[values[i]! * CATEGORIES + values[j]!]! += weight;
    }
  }
  return o;
}

/**
 * Nominal α = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c · n_k, n the pairable values and n_c the coincidence
 * marginals; null when fewer than two values are pairable or every pairable value is the same (no expected
 * disagreement).
 */
export function alphaFromCoincidences(o: Float64Array): number | null {
  const marginals = new Float64Array(CATEGORIES);
  let total = 0;
  for (let c = 0; c < CATEGORIES; c++) {
    for (let d = 0; d < CATEGORIES; d++) marginals[c]! += o[c * CATEGORIES + d]!;
    total += marginals[c]!;
  }
  if (total < 2) return null;
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < CATEGORIES; c++) {
    for (let d = 0; d < CATEGORIES; d++) {
      if (c === d) continue;
      observed += o[c * CATEGORIES + d]!;
      expected += marginals[c]! * marginals[d]!;
    }
  }
  if (expected === 0) return null;
  return 1 - ((total - 1) * observed) / expected;
}
