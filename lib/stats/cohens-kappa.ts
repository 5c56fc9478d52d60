import { type ConfusionMatrix, confusionMatrix } from "./confusion-matrix";
import type { Rating } from "./rating-table";

/**
 * How much a disagreement between categories i and j counts. Linear and quadratic weights use the
 * categories' numeric values (|xᵢ − xⱼ| and (xᵢ − xⱼ)²), not their positions in the list of labels, so an
 * unused value between two used ones (a 0–10 scale where nobody gave 7) keeps its distance. For consecutive
 * integer scores this is the usual Cicchetti–Allison (linear) and Fleiss–Cohen (quadratic) weighting; kappa
 * is unchanged by rescaling the weights, so they need no normalising by (k − 1).
 */
export type KappaWeighting = "unweighted" | "linear" | "quadratic";

/**
 * Cohen's kappa from a confusion matrix: 1 − Σ wᵢⱼ·oᵢⱼ / Σ wᵢⱼ·eᵢⱼ with disagreement weights w, observed
 * proportions o and chance proportions e = row marginal × column marginal. Unweighted (w = 1 off the
 * diagonal) this is (pₒ − pₑ) / (1 − pₑ).
 *
 * `null` when undefined: no items, chance disagreement of zero (both raters used a single, same category),
 * or a weighted kappa over labels that are not all numbers (weights need ordered numeric categories).
 */
export function cohensKappaFromConfusion(
  matrix: ConfusionMatrix,
  weighting: KappaWeighting = "unweighted",
): number | null {
  const k = matrix.labels.length;
  const n = matrix.total;
  if (n === 0) return null;
  let scores: Float64Array | null = null;
  if (weighting !== "unweighted") {
    if (!matrix.labels.every((label) => typeof label === "number")) return null;
    scores = Float64Array.from(matrix.labels as readonly number[]);
  }
  const rows = new Float64Array(k);
  const columns = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const count = matrix.counts[i * k + j]!;
      rows[i]! += count;
      columns[j]! += count;
    }
  }
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (i === j) continue;
      let w = 1;
      if (scores !== null) {
        const d = scores[i]! - scores[j]!;
        w = weighting === "linear" ? Math.abs(d) : d * d;
      }
      observed += w * matrix.counts[i * k + j]!;
      expected += w * rows[i]! * columns[j]!;
    }
  }
  // Both sums are over counts; expected carries one extra factor n (it is n² × the chance proportion).
  if (expected === 0) return null;
  return 1 - (n * observed) / expected;
}

/** Cohen's kappa of two raters' label lists, over the positions where both gave a label. */
export function cohensKappa(
  a: readonly Rating[],
  b: readonly Rating[],
  weighting: KappaWeighting = "unweighted",
): number | null {
  return cohensKappaFromConfusion(confusionMatrix(a, b), weighting);
}
