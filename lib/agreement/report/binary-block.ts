import type { AgreementOptions, BinaryBlock } from "../types";
import { bootstrapMany } from "./bootstrap-many";
import { binaryMetrics, confusionCells, confusionOf, confusionOfSample } from "./confusion";

/** Judge against human on the targets' binarised values: the 2 × 2 table, its metrics, and intervals for accuracy, kappa and F1. */
export function binaryBlock(truth: Uint8Array, predicted: Uint8Array, options: AgreementOptions): BinaryBlock {
  const confusion = confusionOf(truth, predicted);
  const metrics = binaryMetrics(confusion);
  const ciNames = ["accuracy", "kappa", "f1"] as const;
  const cells = confusionCells(truth, predicted);
  const ci = bootstrapMany(
    truth.length,
    ciNames,
    (sample) => {
      const m = binaryMetrics(confusionOfSample(cells, sample));
      return [m.accuracy, m.kappa, m.f1];
    },
    options,
  );
  return { n: truth.length, values: { ...metrics }, ci, confusion };
}
