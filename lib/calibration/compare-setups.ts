/**
 * Judge setups side by side on the same videos and the same reference labels: each run's agreement
 * with the reference (Cohen's κ and Krippendorff's α of its verdict, F1 at its best threshold of the
 * graded score) and, for every pair of runs, whether the difference is real: a paired bootstrap over
 * videos for κ and for F1, and McNemar's test on which videos each verdict gets right.
 *
 * Only videos that every run judged (a verdict and a graded score) and the reference labels are
 * compared, so every statistic is over the same videos.
 */
import { cohensKappa } from "../stats/cohens-kappa";
import { krippendorffAlpha } from "../stats/krippendorff-alpha";
import { discordantCounts, mcnemarTest, type McNemarResult } from "../stats/mcnemar";
import { pairedBootstrapDifference, type PairedBootstrapResult } from "../stats/bootstrap";
import { ratingTableFromMatrix } from "../stats/rating-table";
import { spearman, spearmanOfResamples } from "../stats/correlation";

export interface RunJudgments {
  runId: string;
  /** The run's verdict per video (true: hallucination). */
  verdict: ReadonlyMap<string, boolean>;
  /** The graded score the threshold sweep binarises (the judge's worst score of the video, 0–10). */
  graded: ReadonlyMap<string, number>;
}

export interface RunAgreement {
  runId: string;
  n: number;
  kappa: number | null;
  alpha: number | null;
  accuracy: number | null;
  /** F1 of the run's own verdict. */
  f1: number | null;
  /** The best F1 over thresholds "graded ≥ t", and the lowest t that reaches it. */
  bestF1: number | null;
  bestThreshold: number | null;
  /** The whole sweep, one point per distinct graded value (plus one above the highest: nothing flagged). */
  sweep: { threshold: number; f1: number | null }[];
  /** Spearman's ρ between the graded score and the reference (1 yes, 0 no): how well the score ranks the videos. */
  spearman: number | null;
}

export interface PairComparison {
  a: string;
  b: string;
  kappa: PairedBootstrapResult;
  /** Each run at its own best threshold on all the videos, kept fixed in the resamples. */
  bestF1: PairedBootstrapResult;
  /** Spearman's ρ of the graded scores with the reference, a minus b. */
  spearman: PairedBootstrapResult;
  /** On the verdict being right: b = a right and b wrong, c = the other way round. */
  mcnemar: McNemarResult;
}

export interface SetupComparison {
  videoIds: string[];
  runs: RunAgreement[];
  pairs: PairComparison[];
}

function f1Of(truth: readonly boolean[], predicted: readonly boolean[], items?: Int32Array): number | null {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const n = items ? items.length : truth.length;
  for (let k = 0; k < n; k++) {
    const i = items ? items[k]! : k;
    if (predicted[i] && truth[i]) tp++;
    else if (predicted[i]) fp++;
    else if (truth[i]) fn++;
  }
  return 2 * tp + fp + fn === 0 ? null : (2 * tp) / (2 * tp + fp + fn);
}

function kappaOf(truth: readonly boolean[], predicted: readonly boolean[], items?: Int32Array): number | null {
  const pick = (xs: readonly boolean[]) =>
    items ? Array.from(items, (i) => (xs[i] ? 1 : 0)) : xs.map((x) => (x ? 1 : 0));
  return cohensKappa(pick(truth), pick(predicted));
}

/** F1 of "graded ≥ t" for every distinct t among the scores (and one above them all), and the best. */
export function thresholdSweep(truth: readonly boolean[], graded: readonly number[]) {
  const thresholds = [...new Set(graded)].sort((x, y) => x - y);
  thresholds.push((thresholds.at(-1) ?? 0) + 1);
  const sweep = thresholds.map((t) => ({
    threshold: t,
    f1: f1Of(
      truth,
      graded.map((g) => g >= t),
    ),
  }));
  let best: { threshold: number; f1: number } | null = null;
  for (const point of sweep)
    if (point.f1 !== null && (best === null || point.f1 > best.f1 + 1e-12))
      best = { threshold: point.threshold, f1: point.f1 };
  return { sweep, best };
}

export function compareSetups(
  reference: ReadonlyMap<string, boolean>,
  runs: readonly RunJudgments[],
  options: { iterations?: number; seed?: number } = {},
): SetupComparison {
  const videoIds = [...reference.keys()]
    .filter((id) => runs.every((r) => r.verdict.has(id) && r.graded.has(id)))
    .sort();
  const truth = videoIds.map((id) => reference.get(id)!);
  const truthRanks = truth.map((t) => (t ? 1 : 0));
  const perRun = runs.map((run) => {
    const verdict = videoIds.map((id) => run.verdict.get(id)!);
    const graded = videoIds.map((id) => run.graded.get(id)!);
    const { sweep, best } = thresholdSweep(truth, graded);
    const atBest = best ? graded.map((g) => g >= best.threshold) : verdict;
    const right = new Map(videoIds.map((id, i) => [id, verdict[i] === truth[i]]));
    const agreement: RunAgreement = {
      runId: run.runId,
      n: videoIds.length,
      kappa: videoIds.length ? kappaOf(truth, verdict) : null,
      alpha: videoIds.length
        ? krippendorffAlpha(
            ratingTableFromMatrix(videoIds.map((_, i) => [truth[i] ? 1 : 0, verdict[i] ? 1 : 0])),
            "nominal",
          )
        : null,
      accuracy: videoIds.length ? [...right.values()].filter(Boolean).length / videoIds.length : null,
      f1: f1Of(truth, verdict),
      bestF1: best?.f1 ?? null,
      bestThreshold: best?.threshold ?? null,
      sweep,
      spearman: videoIds.length ? spearman(graded, truthRanks) : null,
    };
    return { agreement, verdict, atBest, right, graded };
  });
  const bootstrap = { iterations: options.iterations ?? 1000, seed: options.seed ?? 1 };
  const pairs: PairComparison[] = [];
  for (let x = 0; x < perRun.length; x++) {
    for (let y = x + 1; y < perRun.length; y++) {
      const A = perRun[x]!;
      const B = perRun[y]!;
      const { b, c } = discordantCounts(A.right, B.right);
      pairs.push({
        a: A.agreement.runId,
        b: B.agreement.runId,
        kappa: pairedBootstrapDifference(
          videoIds.length,
          (items) => kappaOf(truth, A.verdict, items),
          (items) => kappaOf(truth, B.verdict, items),
          bootstrap,
        ),
        bestF1: pairedBootstrapDifference(
          videoIds.length,
          (items) => f1Of(truth, A.atBest, items),
          (items) => f1Of(truth, B.atBest, items),
          bootstrap,
        ),
        spearman: pairedBootstrapDifference(
          videoIds.length,
          spearmanOfResamples(A.graded, truthRanks),
          spearmanOfResamples(B.graded, truthRanks),
          bootstrap,
        ),
        mcnemar: mcnemarTest(b, c),
      });
    }
  }
  return { videoIds, runs: perRun.map((r) => r.agreement), pairs };
}
