import type { ConfusionMatrix } from "../../lib/stats/confusion-matrix";
import type { Category } from "../../lib/stats/rating-table";

/** Precision, recall and F1 from a confusion matrix: what the statistics tests check binary labels with. */
export interface BinaryClassificationMetrics {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  /** tp / (tp + fp); `null` when nothing was predicted positive. */
  precision: number | null;
  /** tp / (tp + fn); `null` when nothing is truly positive. */
  recall: number | null;
  /**
   * 2tp / (2tp + fp + fn), the harmonic mean of precision and recall written so that it is 0 (not undefined)
   * when one of them is 0 or undefined but the other side has positives; `null` only when neither the truth
   * nor the prediction has a single positive.
   */
  f1: number | null;
}

/** Binary metrics from a matrix whose rows are the truth and columns the prediction. */
export function binaryMetricsFromConfusion(matrix: ConfusionMatrix, positive: Category): BinaryClassificationMetrics {
  const k = matrix.labels.length;
  const p = matrix.labels.indexOf(positive);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const n = matrix.counts[i * k + j]!;
      if (i === p && j === p) tp += n;
      else if (j === p) fp += n;
      else if (i === p) fn += n;
    }
  }
  const tn = matrix.total - tp - fp - fn;
  return {
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp + fn === 0 ? null : tp / (tp + fn),
    f1: 2 * tp + fp + fn === 0 ? null : (2 * tp) / (2 * tp + fp + fn),
  };
}
