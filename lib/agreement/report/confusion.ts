import type { Confusion } from "../types";

// 2 × 2 tables of binarised pairs (human = truth, judge = predicted), of all pairs or of a bootstrap resample.

export function confusionOf(truth: ArrayLike<number>, predicted: ArrayLike<number>, sample?: Int32Array): Confusion {
  const c: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const n = sample ? sample.length : truth.length;
  for (let k = 0; k < n; k++) {
    const i = sample ? sample[k]! : k;
    const t = truth[i]!;
    const p = predicted[i]!;
    if (t === 1) {
      if (p === 1) c.tp++;
      else c.fn++;
    } else if (p === 1) c.fp++;
    else c.tn++;
  }
  return c;
}

/** Each pair's cell of the 2 × 2 table (0 tp, 1 fn, 2 fp, 3 tn), for counting resamples of the pairs. */
export function confusionCells(truth: ArrayLike<number>, predicted: ArrayLike<number>): Uint8Array {
  const cells = new Uint8Array(truth.length);
  for (let i = 0; i < truth.length; i++)
    cells[i] = truth[i] === 1 ? (predicted[i] === 1 ? 0 : 1) : predicted[i] === 1 ? 2 : 3;
  return cells;
}

/** confusionOf(truth, predicted, sample) from the pairs' cells: one read per drawn pair. */
export function confusionOfSample(cells: Uint8Array, sample: Int32Array): Confusion {
  let tp = 0;
  let fn = 0;
  let fp = 0;
  for (let k = 0; k < sample.length; k++) {
    const cell = cells[sample[k]!]!;
    if (cell === 0) tp++;
    else if (cell === 1) fn++;
    else if (cell === 2) fp++;
  }
  return { tp, fp, fn, tn: sample.length - tp - fn - fp };
}

/** Precision, recall, F1, accuracy and Cohen's kappa of a 2 × 2 table; null where undefined. */
export function binaryMetrics(c: Confusion) {
  const n = c.tp + c.fp + c.fn + c.tn;
  const accuracy = n === 0 ? null : (c.tp + c.tn) / n;
  const chance = n === 0 ? null : ((c.tp + c.fp) * (c.tp + c.fn) + (c.fn + c.tn) * (c.fp + c.tn)) / (n * n);
  const kappa = accuracy === null || chance === null || chance >= 1 ? null : (accuracy - chance) / (1 - chance);
  return {
    precision: c.tp + c.fp === 0 ? null : c.tp / (c.tp + c.fp),
    recall: c.tp + c.fn === 0 ? null : c.tp / (c.tp + c.fn),
    f1: 2 * c.tp + c.fp + c.fn === 0 ? null : (2 * c.tp) / (2 * c.tp + c.fp + c.fn),
    accuracy,
    kappa,
  };
}
