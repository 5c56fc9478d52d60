import { cohensKappa } from "../../stats/cohens-kappa";
import { kendallTauB, pearson, spearman, spearmanOfResamples } from "../../stats/correlation";
import { meanAbsoluteError, rootMeanSquaredError } from "../../stats/error-metrics";
import { krippendorffAlpha, type MeasurementLevel } from "../../stats/krippendorff-alpha";
import { RatingTableBuilder } from "../../stats/rating-table";
import type { AgreementOptions, StatBlock } from "../types";
import { bootstrapMany } from "./bootstrap-many";
import { absoluteErrors, finite, meanOfSample } from "./numbers";

function alphaOfPairs(a: ArrayLike<number>, b: ArrayLike<number>, level: MeasurementLevel): number | null {
  if (a.length === 0) return null;
  const builder = new RatingTableBuilder();
  for (let i = 0; i < a.length; i++) {
    const item = String(i);
    builder.add(item, "a", a[i]!, i);
    builder.add(item, "b", b[i]!, i);
  }
  return finite(krippendorffAlpha(builder.build(), level));
}

/** Two raters (the judge first) on one scale: weighted kappa, correlations, errors, Krippendorff's alpha at the declared level. */
export function nativeBlock(judge: Float64Array, human: Float64Array, level: MeasurementLevel, options: AgreementOptions): StatBlock {
  const n = judge.length;
  const j = Array.from(judge);
  const h = Array.from(human);
  const values = {
    kappaLinear: n ? finite(cohensKappa(j, h, "linear")) : null,
    kappaQuadratic: n ? finite(cohensKappa(j, h, "quadratic")) : null,
    spearman: n ? finite(spearman(judge, human)) : null,
    kendallTauB: n ? finite(kendallTauB(judge, human)) : null,
    pearson: n ? finite(pearson(judge, human)) : null,
    mae: finite(meanAbsoluteError(judge, human)),
    rmse: finite(rootMeanSquaredError(judge, human)),
    alpha: alphaOfPairs(judge, human, level),
  };
  const resampledSpearman = spearmanOfResamples(judge, human);
  const errors = absoluteErrors(judge, human);
  const ci = bootstrapMany(n, ["spearman", "mae"], (sample) => [resampledSpearman(sample), meanOfSample(errors, sample)], options);
  return { n, values, ci };
}
