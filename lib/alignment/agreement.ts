import { cohensKappa } from "../stats/cohens-kappa";
import { pairedBootstrapDifference, type PairedBootstrapResult } from "../stats/bootstrap";

export interface BinaryAgreement {
  n: number;
  kappa: number | null;
  f1: number | null;
}

function f1Of(truth: readonly boolean[], predicted: readonly boolean[], items: ArrayLike<number>): number | null {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let k = 0; k < items.length; k++) {
    const i = items[k]!;
    if (predicted[i] && truth[i]) tp++;
    else if (predicted[i]) fp++;
    else if (truth[i]) fn++;
  }
  return 2 * tp + fp + fn === 0 ? null : (2 * tp) / (2 * tp + fp + fn);
}

function kappaOf(truth: readonly boolean[], predicted: readonly boolean[], items: ArrayLike<number>): number | null {
  const pick = (xs: readonly boolean[]) => Array.from(items, (i) => (xs[i] ? 1 : 0));
  return cohensKappa(pick(truth), pick(predicted));
}

const all = (n: number) => Array.from({ length: n }, (_, i) => i);

/** κ and F1 of the judge's binarised values against the labels', over the videos both have. */
export function binaryAgreement(truth: readonly boolean[], predicted: readonly boolean[]): BinaryAgreement {
  return {
    n: truth.length,
    kappa: truth.length ? kappaOf(truth, predicted, all(truth.length)) : null,
    f1: f1Of(truth, predicted, all(truth.length)),
  };
}

/** Candidate minus baseline on the same videos: paired bootstrap of κ and of F1. */
export function pairedDifference(
  truth: readonly boolean[],
  candidate: readonly boolean[],
  baseline: readonly boolean[],
  options: { iterations?: number; seed?: number } = {},
): { kappa: PairedBootstrapResult; f1: PairedBootstrapResult } {
  const bootstrap = { iterations: options.iterations ?? 2000, seed: options.seed ?? 1 };
  return {
    kappa: pairedBootstrapDifference(
      truth.length,
      (items) => kappaOf(truth, candidate, items),
      (items) => kappaOf(truth, baseline, items),
      bootstrap,
    ),
    f1: pairedBootstrapDifference(
      truth.length,
      (items) => f1Of(truth, candidate, items),
      (items) => f1Of(truth, baseline, items),
      bootstrap,
    ),
  };
}

/** A judge's values and the labels on the ids that have both: the labels' and the values' positives, in id order. */
export function labelledPairs(
  values: ReadonlyMap<string, number>,
  labels: ReadonlyMap<string, number>,
  truthPositive: (label: number) => boolean,
  positive: (value: number) => boolean,
  ids: readonly string[],
): { ids: string[]; truth: boolean[]; predicted: boolean[] } {
  const both = ids.filter((id) => values.has(id) && labels.has(id));
  return {
    ids: both,
    truth: both.map((id) => truthPositive(labels.get(id)!)),
    predicted: both.map((id) => positive(values.get(id)!)),
  };
}

/** The held-out comparison of an alignment (rubric or built-in): each judge's agreement and the paired bootstrap of their difference. */
export function heldOutComparison(
  baseline: { truth: boolean[]; predicted: boolean[]; runId: string },
  best: { truth: boolean[]; predicted: boolean[]; runId: string },
  seed: number,
) {
  return {
    baseline: binaryAgreement(baseline.truth, baseline.predicted),
    best: binaryAgreement(best.truth, best.predicted),
    difference: pairedDifference(baseline.truth, best.predicted, baseline.predicted, { seed }),
    baselineRunId: baseline.runId,
    bestRunId: best.runId,
  };
}
