import { mulberry32 } from "../stats/bootstrap";

/**
 * "What to label next": which videos' human labels most narrow the interval of a judge's accuracy
 * (the share of a run's videos where the judge's verdict matches the humans'), for a budget of N.
 *
 * Method (stratified sampling with a Beta prior):
 * - The run's videos with a judge score and verdict are cut into strata by the score (equal-count
 *   bins of the sorted scores; equal scores stay in one stratum).
 * - In stratum h, with N_h videos of which n_h are labelled and c_h of those agree with the judge, the
 *   judge's accuracy has the posterior Beta(a + c_h, b + n_h − c_h) (prior Beta(a, b), default 1, 1).
 *   The m_h = N_h − n_h unlabelled videos' agreements are then Beta-binomial, so the run's accuracy
 *   (c + the unlabelled agreements) / N has the mean Σ (c_h + m_h·α_h/(α_h+β_h)) / N and the variance
 *   Σ m_h·α_h·β_h·(α_h+β_h+m_h) / ((α_h+β_h)²·(α_h+β_h+1)) / N². The interval is mean ± z·sd, clipped
 *   to [0, 1]. Labelling everything leaves no variance; an unlabelled stratum counts with the prior.
 * - Labels are allotted one at a time to the stratum whose expected variance drops most (taking the
 *   new label to agree with the posterior mean's probability). This is Neyman allocation (n_h ∝
 *   N_h·S_h, S_h = √(p_h(1−p_h))) done greedily: it favours large and uncertain strata, counts the
 *   labels a stratum already has and never asks for more videos than it holds unlabelled.
 * - Within a stratum the videos are drawn at random (seeded, so a proposal can be reproduced): a
 *   random sample keeps the stratum's estimate unbiased, which picking "interesting" videos would not.
 * - The expected interval after labelling is the same formula with each stratum's new labels counted
 *   at the posterior mean (α_h += k_h·p_h, β_h += k_h·(1−p_h), m_h −= k_h).
 */

export interface PlanVideo {
  videoId: string;
  /** The judge's score used for stratifying (hallucination: the overall), null when it has none. */
  score: number | null;
  /** The judge's verdict (1/0), null when it has none. */
  judge: number | null;
  /** The humans' verdict (their majority; null: unlabelled, or a tie). */
  human: number | null;
}

export interface PlanOptions {
  budget: number;
  strata?: number;
  prior?: { a: number; b: number };
  /** Normal quantile of the interval: 1.96 for 95 %. */
  z?: number;
  seed?: number;
}

export interface Interval {
  estimate: number;
  lower: number;
  upper: number;
  /** Half the interval's width. */
  halfWidth: number;
}

export interface StratumPlan {
  index: number;
  /** The lowest and highest judge score in the stratum. */
  scoreMin: number;
  scoreMax: number;
  size: number;
  labelled: number;
  /** Labelled videos where the judge agrees with the humans. */
  agreeing: number;
  /** The posterior mean of the judge's accuracy in the stratum. */
  accuracy: number;
  /** Labels the plan asks for in this stratum. */
  proposed: number;
}

export interface LabellingPlan {
  /** Videos the plan can use: with a judge score and verdict. */
  eligible: number;
  /** Videos left out: no judge score or verdict. */
  excluded: number;
  strata: StratumPlan[];
  current: Interval;
  expected: Interval;
  /** The proposed videos, by stratum then at random within it. */
  videoIds: string[];
}

interface Stratum {
  videos: PlanVideo[];
  scoreMin: number;
  scoreMax: number;
}

/** Equal-count bins of the videos sorted by score; videos with the same score never straddle two bins. */
export function stratify(videos: readonly PlanVideo[], count: number): Stratum[] {
  const sorted = [...videos].sort((x, y) => x.score! - y.score! || x.videoId.localeCompare(y.videoId));
  if (sorted.length === 0) return [];
  const bins = Math.max(1, Math.min(count, sorted.length));
  const strata: Stratum[] = [];
  let start = 0;
  for (let b = 1; b <= bins && start < sorted.length; b++) {
    let end = b === bins ? sorted.length : Math.max(start + 1, Math.round((b * sorted.length) / bins));
    while (end < sorted.length && sorted[end]!.score === sorted[end - 1]!.score) end++;
    const slice = sorted.slice(start, end);
    strata.push({ videos: slice, scoreMin: slice[0]!.score!, scoreMax: slice.at(-1)!.score! });
    start = end;
  }
  return strata;
}

interface Posterior {
  alpha: number;
  beta: number;
  /** Unlabelled videos left. */
  remaining: number;
  agreeing: number;
}

/** The variance of the number of agreements among `remaining` unlabelled videos (Beta-binomial). */
function agreementVariance(p: Posterior): number {
  const s = p.alpha + p.beta;
  return (p.remaining * p.alpha * p.beta * (s + p.remaining)) / (s * s * (s + 1));
}

function interval(posteriors: readonly Posterior[], total: number, z: number): Interval {
  if (total === 0) return { estimate: 0, lower: 0, upper: 1, halfWidth: 0.5 };
  let mean = 0;
  let variance = 0;
  for (const p of posteriors) {
    mean += p.agreeing + (p.remaining * p.alpha) / (p.alpha + p.beta);
    variance += agreementVariance(p);
  }
  const estimate = mean / total;
  const sd = Math.sqrt(variance) / total;
  const lower = Math.max(0, estimate - z * sd);
  const upper = Math.min(1, estimate + z * sd);
  return { estimate, lower, upper, halfWidth: (upper - lower) / 2 };
}

/** The posterior after `k` more labels counted at the posterior mean. */
function afterLabels(p: Posterior, k: number): Posterior {
  const mean = p.alpha / (p.alpha + p.beta);
  return {
    alpha: p.alpha + k * mean,
    beta: p.beta + k * (1 - mean),
    remaining: p.remaining - k,
    agreeing: p.agreeing + k * mean,
  };
}

/** Greedy Neyman allocation: each label to the stratum whose expected variance drops most. */
export function allocate(posteriors: readonly Posterior[], budget: number): number[] {
  const given = posteriors.map(() => 0);
  for (let label = 0; label < budget; label++) {
    let best = -1;
    let bestDrop = -Infinity;
    for (const [h, p] of posteriors.entries()) {
      if (given[h]! >= p.remaining) continue;
      const drop = agreementVariance(afterLabels(p, given[h]!)) - agreementVariance(afterLabels(p, given[h]! + 1));
      if (drop > bestDrop + 1e-15) {
        best = h;
        bestDrop = drop;
      }
    }
    if (best < 0) break;
    given[best]!++;
  }
  return given;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function planLabelling(videos: readonly PlanVideo[], options: PlanOptions): LabellingPlan {
  const { budget, strata: strataCount = 5, prior = { a: 1, b: 1 }, z = 1.96, seed = 1 } = options;
  const eligible = videos.filter((v) => v.score !== null && Number.isFinite(v.score) && v.judge !== null);
  const strata = stratify(eligible, strataCount);
  const posteriors: Posterior[] = strata.map((s) => {
    const labelled = s.videos.filter((v) => v.human !== null);
    const agreeing = labelled.filter((v) => v.human === v.judge).length;
    return {
      alpha: prior.a + agreeing,
      beta: prior.b + labelled.length - agreeing,
      remaining: s.videos.length - labelled.length,
      agreeing,
    };
  });
  const proposed = allocate(posteriors, Math.max(0, Math.floor(budget)));
  const random = mulberry32(seed);
  const videoIds = strata.flatMap((s, h) =>
    shuffled(
      s.videos.filter((v) => v.human === null),
      random,
    )
      .slice(0, proposed[h])
      .map((v) => v.videoId),
  );
  return {
    eligible: eligible.length,
    excluded: videos.length - eligible.length,
    strata: strata.map((s, h) => {
      const p = posteriors[h]!;
      return {
        index: h,
        scoreMin: s.scoreMin,
        scoreMax: s.scoreMax,
        size: s.videos.length,
        labelled: s.videos.length - p.remaining,
        agreeing: p.agreeing,
        accuracy: p.alpha / (p.alpha + p.beta),
        proposed: proposed[h]!,
      };
    }),
    current: interval(posteriors, eligible.length, z),
    expected: interval(
      posteriors.map((p, h) => afterLabels(p, proposed[h]!)),
      eligible.length,
      z,
    ),
    videoIds,
  };
}

/** The humans' verdict from their values: the majority, none on a tie. */
export function majorityVerdict(values: readonly number[]): number | null {
  const yes = values.filter((v) => v === 1).length;
  const no = values.filter((v) => v === 0).length;
  if (yes === no) return null;
  return yes > no ? 1 : 0;
}
