import { spearman, spearmanOfResamples } from "../../stats/correlation";
import type { MeasurementLevel } from "../../stats/krippendorff-alpha";
import { PRESENCE_TARGET_TYPE } from "../../task-modules/task-declaration";
import { meanAbsoluteError } from "../../stats/error-metrics";
import type { AgreementItem, AgreementOptions, StatBlock } from "../types";
import { bootstrapMany } from "./bootstrap-many";
import { binaryMetrics, confusionCells, confusionOf, confusionOfSample } from "./confusion";
import type { Declarations } from "./declarations";
import { alphaOfPairs } from "./native-block";
import { absoluteErrors, finite } from "./numbers";
import { binaryArrays, pairsOf } from "./pairs";

/**
 * The measurement level of a group whose pairs are all of one declared target (a category's group), which its
 * α is taken at; null when the group mixes targets, or is a presence target's (0/1 labels against graded scores).
 */
export function groupLevel(items: readonly AgreementItem[], d: Declarations): MeasurementLevel | null {
  const declared = new Set(items.map((item) => d.of(item)));
  if (declared.size !== 1 || items.some((item) => item.targetType === PRESENCE_TARGET_TYPE)) return null;
  return d.of(items[0]!).level;
}

/**
 * A breakdown group's judge against truth: binarised (accuracy, kappa, F1, precision, recall), Spearman and MAE
 * when its targets share one scale, and Krippendorff's α at the target's declared level when it is one target.
 */
export function groupBlock(items: readonly AgreementItem[], options: AgreementOptions, d: Declarations): StatBlock {
  const pairs = pairsOf(items, (item) => d.truth(item));
  const level = pairs.length
    ? groupLevel(
        pairs.map((p) => p.item),
        d,
      )
    : null;
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
      alpha: level ? alphaOfPairs(judge, human, level) : null,
    },
    ci,
  };
}
