import { percentileInterval } from "../../stats/bootstrap";
import type { Vote } from "../verdicts";
import { aggregateVotes, byCodeUnit, weightedCounts, type VoteTable } from "./aggregate";
import { drawScratch, generatorsWithVotes, INTERVAL_CONFIDENCE, promptWeights } from "./bootstrap";
import { fitModel } from "./fit";
import { fitTable, modelFor, parseRankingOptions, totalCells } from "./rank-votes";
import type { RankingCorrelation, RankingOptions } from "./ranking.types";

/**
 * Kendall's τ-b between two rankings (people's and a judge's) over the generators both rate, with its 95%
 * interval from the bootstrap over prompts: each draw picks prompts from the union of both vote sets' prompts and
 * refits BOTH rankings on that same draw, so the interval carries the dependence between them (the same prompts,
 * often the same pairs).
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  let pairs = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      pairs++;
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      if (dx * dy > 0) concordant++;
      else if (dx * dy < 0) discordant++;
    }
  }
  const denominator = Math.sqrt((pairs - tiedX) * (pairs - tiedY));
  return denominator > 0 ? (concordant - discordant) / denominator : null;
}

/** Index pairs (in a, in b) of the generators both tables know. */
function sharedGenerators(a: VoteTable, b: VoteTable): [number, number][] {
  const inB = new Map(b.generators.map((name, g) => [name, g]));
  return a.generators.flatMap((name, g): [number, number][] => (inB.has(name) ? [[g, inB.get(name)!]] : []));
}

function tauOfShared(
  shared: [number, number][],
  ratingsA: Float64Array,
  ratingsB: Float64Array,
  presentA: (g: number) => boolean,
  presentB: (g: number) => boolean,
): { tau: number | null; generators: number } {
  const both = shared.filter(([ga, gb]) => presentA(ga) && presentB(gb));
  const tau = kendallTauB(
    both.map(([ga]) => ratingsA[ga]!),
    both.map(([, gb]) => ratingsB[gb]!),
  );
  return { tau, generators: both.length };
}

function drawTaus(a: VoteTable, b: VoteTable, options: RankingOptions, shared: [number, number][]): Float64Array {
  const model = modelFor(options.tieModel);
  const startA = fitTable(a, options);
  const startB = fitTable(b, options);
  const scratchA = drawScratch(a);
  const scratchB = drawScratch(b);
  const taus = new Float64Array(options.bootstrapDraws);
  for (let d = 0; d < options.bootstrapDraws; d++) {
    promptWeights(options.seed, d, scratchA.sample, scratchA.weights);
    weightedCounts(a, scratchA.weights, scratchA.cells);
    weightedCounts(b, scratchA.weights, scratchB.cells);
    const paramsA = fitModel(model, a.generators.length, scratchA.cells, startA);
    const paramsB = fitModel(model, b.generators.length, scratchB.cells, startB);
    const presentA = generatorsWithVotes(scratchA.cells, a.generators.length);
    const presentB = generatorsWithVotes(scratchB.cells, b.generators.length);
    const { tau } = tauOfShared(
      shared,
      paramsA,
      paramsB,
      (g) => presentA[g] === 1,
      (g) => presentB[g] === 1,
    );
    taus[d] = tau ?? NaN;
  }
  return taus;
}

export function rankingCorrelation(
  votesPeople: readonly Vote[],
  votesJudge: readonly Vote[],
  options: RankingOptions,
): RankingCorrelation {
  const parsed = parseRankingOptions(options);
  const prompts = [...new Set([...votesPeople, ...votesJudge].map((vote) => vote.prompt))].sort(byCodeUnit);
  const people = aggregateVotes(votesPeople, { prompts });
  const judge = aggregateVotes(votesJudge, { prompts });
  const shared = sharedGenerators(people, judge);
  const point = tauOfShared(
    shared,
    fitModel(modelFor(parsed.tieModel), people.generators.length, totalCells(people)),
    fitModel(modelFor(parsed.tieModel), judge.generators.length, totalCells(judge)),
    (g) => people.generatorCounts[g]!.votes > 0,
    (g) => judge.generatorCounts[g]!.votes > 0,
  );
  if (point.tau === null || parsed.bootstrapDraws === 0) {
    return { kendallTau: point.tau, lower: null, upper: null, generators: point.generators };
  }
  const interval = percentileInterval(drawTaus(people, judge, parsed, shared), INTERVAL_CONFIDENCE);
  return {
    kendallTau: point.tau,
    lower: interval?.lower ?? null,
    upper: interval?.upper ?? null,
    generators: point.generators,
  };
}
