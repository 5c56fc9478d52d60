import { spearman, spearmanOfResamples } from "../../stats/correlation";
import { meanAbsoluteError } from "../../stats/error-metrics";
import type { AgreementItem, AgreementOptions, StatBlock } from "../types";
import { bootstrapMany } from "./bootstrap-many";
import { binaryMetrics, confusionCells, confusionOf, confusionOfSample } from "./confusion";
import type { Declarations } from "./declarations";
import { absoluteErrors, finite } from "./numbers";
import { binaryArrays, pairsOf } from "./pairs";

/** A breakdown group's judge against truth: binarised (accuracy, kappa, F1, precision, recall), and Spearman and MAE when its targets share one scale. */
export function groupBlock(items: readonly AgreementItem[], options: AgreementOptions, d: Declarations): StatBlock {
  const pairs = pairsOf(items, (item) => d.truth(item));
  const { truth, predicted } = binaryArrays(pairs, d);
  const m = binaryMetrics(confusionOf(truth, predicted));
  const types = new Set(pairs.map((p) => p.item.targetType));
  const oneScale = types.size === 1;
  const judge = Float64Array.from(pairs, (p) => p.judge);
  const human = Float64Array.from(pairs, (p) => p.human);
  const names = oneScale ? ["accuracy", "kappa", "f1", "spearman", "mae"] : ["accuracy", "kappa", "f1"];
  const resampledSpearman = oneScale ? spearmanOfResamples(judge, human) : null;
  const errors = oneScale ? absoluteErrors(judge, human) : null;
  const cells = confusionCells(truth, predicted);
  const ci = bootstrapMany(
    pairs.length,
    names,
    (sample) => {
      if (!resampledSpearman) {
        const s = binaryMetrics(confusionOfSample(cells, sample));
        return [s.accuracy, s.kappa, s.f1];
      }
      // The 2 × 2 counts and the absolute errors' sum in one pass over the resample (the same sum, in
      // the same order, as meanOfSample).
      let tp = 0;
      let fn = 0;
      let fp = 0;
      let errorSum = 0;
      for (let k = 0; k < sample.length; k++) {
        const i = sample[k]!;
        const cell = cells[i]!;
        if (cell === 0) tp++;
        else if (cell === 1) fn++;
        else if (cell === 2) fp++;
        errorSum += errors![i]!;
      }
      const s = binaryMetrics({ tp, fp, fn, tn: sample.length - tp - fn - fp });
      return [s.accuracy, s.kappa, s.f1, resampledSpearman(sample), errorSum / sample.length];
    },
    options,
  );
  return {
    n: pairs.length,
    values: {
      accuracy: m.accuracy,
      kappa: m.kappa,
      f1: m.f1,
      precision: m.precision,
      recall: m.recall,
      spearman: oneScale && pairs.length ? finite(spearman(judge, human)) : null,
      mae: oneScale ? finite(meanAbsoluteError(judge, human)) : null,
    },
    ci,
  };
}
