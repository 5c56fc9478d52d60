import { z } from "zod";
import { ValidationError } from "../../errors";
import type { Vote } from "../verdicts";
import type { ActivePlan, PairCandidate, PlannedPair } from "./active.types";
import {
  addComparison,
  differenceVariance,
  fitLaplace,
  winProbability,
  type LaplaceFit,
} from "./laplace-bradley-terry";

/**
 * Which pairs next. Both rules score a generator pair (i, j) on the Laplace approximation of the Bradley–Terry
 * posterior (laplace-bradley-terry.ts), with V = Var(θ_i − θ_j):
 *
 * - "variance_reduction", Chatbot Arena's active sampling rule (Chiang et al. 2024, "Chatbot Arena: An Open Platform
 *   for Evaluating LLMs by Human Preference", arXiv:2403.04132, §5): a pair is worth how much one more comparison of
 *   it narrows the standard error of its difference, √(Σ/n) − √(Σ/(n + 1)) with n its comparisons so far and Σ the
 *   per-comparison variance. With Σ = n·V that is √V · (1 − √(n / (n + 1))): a pair never compared scores √V.
 *   LMArena samples pairs with probability proportional to this; the plan takes the largest, one at a time.
 * - "information_gain": the expected information one more comparison gives about all strengths, which under the
 *   Laplace approximation is ½·log(1 + p(1 − p)·V) (the matrix determinant lemma on H + p(1 − p)·xxᵀ).
 *
 * After each pick the posterior covariance takes the planned comparison in (Sherman–Morrison) and the pair's count
 * goes up, so a plan of N spreads over pairs instead of repeating the best one. Within the chosen generator pair the
 * candidate of the prompt with the fewest verdicts (existing and planned) goes first. Ties go to the code-unit order
 * of (generator pair, prompt, pair id): the same votes and candidates give the same plan.
 */
export const ACTIVE_RULES = ["variance_reduction", "information_gain"] as const;
export type ActiveRule = (typeof ACTIVE_RULES)[number];

export const MAX_PLANNED_PAIRS = 10_000;

export const planOptionsSchema = z.object({
  n: z.number().int().min(0).max(MAX_PLANNED_PAIRS),
  rule: z.enum(ACTIVE_RULES),
  /** Only the votes of this aspect count; all votes when absent (the caller has filtered them). */
  aspect: z.string().optional(),
});
export type PlanOptions = z.infer<typeof planOptionsSchema>;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface GeneratorPair {
  key: string;
  i: number;
  j: number;
  /** Comparisons so far, planned ones included. */
  count: number;
  /** Candidates not planned yet, the next one first. */
  queue: PairCandidate[];
}

/** The key of an unordered generator pair (names in code-unit order, `\u0000` between). */
function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** How many verdicts each prompt already has on each generator pair. */
function promptCounts(votes: readonly Vote[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const vote of votes) {
    const key = `${pairKey(vote.generatorA, vote.generatorB)}\u0000${vote.prompt}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function generatorPairs(votes: readonly Vote[], candidates: readonly PairCandidate[], fit: LaplaceFit) {
  const pairs = new Map<string, GeneratorPair>();
  for (const candidate of candidates) {
    const key = pairKey(candidate.generatorA, candidate.generatorB);
    const entry = pairs.get(key) ?? {
      key,
      i: fit.index.get(candidate.generatorA)!,
      j: fit.index.get(candidate.generatorB)!,
      count: 0,
      queue: [],
    };
    entry.queue.push(candidate);
    pairs.set(key, entry);
  }
  for (const vote of votes) {
    const entry = pairs.get(pairKey(vote.generatorA, vote.generatorB));
    if (entry) entry.count++;
  }
  return [...pairs.values()].sort((x, y) => compare(x.key, y.key));
}

/** The score of one more comparison of the generator pair under the rule. */
export function pairScore(fit: LaplaceFit, rule: ActiveRule, i: number, j: number, count: number): number {
  const variance = differenceVariance(fit, i, j);
  switch (rule) {
    case "variance_reduction":
      return Math.sqrt(variance) * (1 - Math.sqrt(count / (count + 1)));
    case "information_gain": {
      const p = winProbability(fit, i, j);
      return 0.5 * Math.log1p(p * (1 - p) * variance);
    }
    default: {
      const unknown: never = rule;
      throw new RangeError(`unknown rule ${String(unknown)}`);
    }
  }
}

/** The candidate of the prompt with the fewest verdicts on this generator pair, then by prompt and pair id. */
function takeNext(pair: GeneratorPair, perPrompt: Map<string, number>): PairCandidate {
  const verdicts = (c: PairCandidate) => perPrompt.get(`${pair.key}\u0000${c.prompt}`) ?? 0;
  let best = 0;
  for (let c = 1; c < pair.queue.length; c++) {
    const x = pair.queue[c]!;
    const y = pair.queue[best]!;
    const order = verdicts(x) - verdicts(y) || compare(x.prompt, y.prompt) || compare(x.pairId ?? "", y.pairId ?? "");
    if (order < 0) best = c;
  }
  const [candidate] = pair.queue.splice(best, 1);
  const key = `${pair.key}\u0000${candidate!.prompt}`;
  perPrompt.set(key, (perPrompt.get(key) ?? 0) + 1);
  return candidate!;
}

/** The rule's best generator pair among those with candidates left (the first in key order on a tie); null when none. */
function bestPair(pairs: readonly GeneratorPair[], fit: LaplaceFit, rule: ActiveRule) {
  let best: { pair: GeneratorPair; score: number } | null = null;
  for (const pair of pairs) {
    if (pair.queue.length === 0) continue;
    const score = pairScore(fit, rule, pair.i, pair.j, pair.count);
    if (best === null || score > best.score) best = { pair, score };
  }
  return best;
}

/**
 * The next `n` pairs to compare (fewer when the candidates run out), the most useful first. Candidates of one
 * generator with itself are refused (they say nothing of a ranking); votes on honeypots are not counted.
 */
export function planNextPairs(
  votes: readonly Vote[],
  candidates: readonly PairCandidate[],
  options: PlanOptions,
): ActivePlan {
  const parsed = planOptionsSchema.safeParse(options);
  if (!parsed.success) throw new ValidationError(`invalid plan options: ${parsed.error.issues[0]!.message}`);
  const { n, rule, aspect } = parsed.data;
  for (const candidate of candidates) {
    if (candidate.generatorA === candidate.generatorB) {
      throw new ValidationError(`a candidate compares ${JSON.stringify(candidate.generatorA)} with itself`);
    }
  }
  const counted = votes.filter(
    (vote) => !vote.honeypot && vote.generatorA !== vote.generatorB && (aspect === undefined || vote.aspect === aspect),
  );
  const names = [
    ...counted.flatMap((v) => [v.generatorA, v.generatorB]),
    ...candidates.flatMap((c) => [c.generatorA, c.generatorB]),
  ];
  const fit = fitLaplace(counted, [...new Set(names)].sort(compare));
  const pairs = generatorPairs(counted, candidates, fit);
  const perPrompt = promptCounts(counted);
  const planned: PlannedPair[] = [];
  while (planned.length < n) {
    const best = bestPair(pairs, fit, rule);
    if (best === null) break;
    planned.push({ ...takeNext(best.pair, perPrompt), score: best.score });
    best.pair.count++;
    addComparison(fit, best.pair.i, best.pair.j);
  }
  return { rule, pairs: planned };
}
