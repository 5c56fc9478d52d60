import { cohensKappaFromConfusion } from "../../stats/cohens-kappa";
import { confusionMatrix } from "../../stats/confusion-matrix";
import { kendallTauB, pearson, spearman, spearmanOfResamples } from "../../stats/correlation";
import { meanAbsoluteError, rootMeanSquaredError } from "../../stats/error-metrics";
import { krippendorffAlpha, type MeasurementLevel } from "../../stats/krippendorff-alpha";
import type { RatingTable } from "../../stats/rating-table";
import type { AgreementOptions, StatBlock } from "../types";
import { bootstrapMany } from "./bootstrap-many";
import { absoluteErrors, finite, meanOfSample } from "./numbers";

/**
 * Krippendorff's alpha of two raters who rated every item: the table RatingTableBuilder makes of them
 * (categories the distinct values ascending, each item a row of two codes), built directly. The item
 * ids are never read by alpha; the values are finite (checked by the other statistics first).
 */
export function alphaOfPairs(a: ArrayLike<number>, b: ArrayLike<number>, level: MeasurementLevel): number | null {
  if (a.length === 0) return null;
  const distinct = new Set<number>();
  for (let i = 0; i < a.length; i++) {
    distinct.add(a[i]!);
    distinct.add(b[i]!);
  }
  const categories = [...distinct].sort((x, y) => x - y);
  const code = new Map(categories.map((value, i) => [value, i]));
  const codes = new Int32Array(a.length * 2);
  for (let i = 0; i < a.length; i++) {
    codes[2 * i] = code.get(a[i]!)!;
    codes[2 * i + 1] = code.get(b[i]!)!;
  }
  const table: RatingTable = {
    itemIds: new Array<string>(a.length).fill(""),
    raterIds: ["a", "b"],
    categories,
    categoryValues: Float64Array.from(categories),
    codes,
  };
  return finite(krippendorffAlpha(table, level));
}

/** Two raters (the judge first) on one scale: weighted kappa, correlations, errors, Krippendorff's alpha at the declared level. */
export function nativeBlock(
  judge: Float64Array,
  human: Float64Array,
  level: MeasurementLevel,
  options: AgreementOptions,
): StatBlock {
  const n = judge.length;
  // One confusion matrix for both weightings (cohensKappa makes its own each time).
  const matrix = n ? confusionMatrix(Array.from(judge), Array.from(human)) : null;
  const values = {
    kappaLinear: matrix ? finite(cohensKappaFromConfusion(matrix, "linear")) : null,
    kappaQuadratic: matrix ? finite(cohensKappaFromConfusion(matrix, "quadratic")) : null,
    spearman: n ? finite(spearman(judge, human)) : null,
    kendallTauB: n ? finite(kendallTauB(judge, human)) : null,
    pearson: n ? finite(pearson(judge, human)) : null,
    mae: finite(meanAbsoluteError(judge, human)),
    rmse: finite(rootMeanSquaredError(judge, human)),
    alpha: alphaOfPairs(judge, human, level),
  };
  const resampledSpearman = spearmanOfResamples(judge, human);
  const errors = absoluteErrors(judge, human);
  const ci = bootstrapMany(
    n,
    ["spearman", "mae"],
    (sample) => [resampledSpearman(sample), meanOfSample(errors, sample)],
    options,
  );
  return { n, values, ci };
}
