import { spearman, spearmanOfResamples } from "../../stats/correlation";
import { meanAbsoluteError } from "../../stats/error-metrics";
import type { AgreementItem, AgreementOptions, StatBlock } from "../types";
import { bootstrapMany } from "./bootstrap-many";
import { binaryMetrics, confusionCells, confusionOf, confusionOfSample } from "./confusion";
import type { Declarations } from "./declarations";
import { absoluteErrors, finite, meanOfSample } from "./numbers";
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
  const ci = bootstrapMany(pairs.length, names, (sample) => {
    const s = binaryMetrics(confusionOfSample(cells, sample));
    if (!resampledSpearman) return [s.accuracy, s.kappa, s.f1];
    return [s.accuracy, s.kappa, s.f1, resampledSpearman(sample), meanOfSample(errors!, sample)];
  }, options);
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
