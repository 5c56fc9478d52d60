import type { Robustness } from "./ranking.types";
import type { VoteTable } from "./aggregate";
import { choleskySolve, fitModel, type CellOutcome, type FitCells, type PairModel } from "./fit";
import { generatorsWithVotes } from "./bootstrap";

/**
 * The robustness line: how many votes must go before someone else is ranked first. Greedy: each step removes the
 * one vote whose removal most narrows the gap between the leader and the current runner-up, then refits. The vote
 * is chosen by the first-order (influence) estimate of its removal's effect on the gap, −u·∇ℓ(vote) with
 * u = (−H)⁻¹(e_leader − e_runnerUp) at the current fit (H the penalised log-likelihood's Hessian); the gap after
 * the removal is the refit's, not the estimate's. The search stops when another generator is rated strictly above
 * the first leader, or after the search limit, reporting null: 2,000 removals, or every vote, or fewer with many
 * generators (each step solves an n × n system, so the limit keeps n³ × steps under ROBUSTNESS_WORK: 2,000 steps up
 * to 107 generators, 312 at 200). Greedy can overcount: a smarter choice of votes might need fewer.
 */
export const ROBUSTNESS_SEARCH_LIMIT = 2000;
const ROBUSTNESS_WORK = 2.5e9;

export function robustnessSearchLimit(votes: number, generators: number): number {
  return Math.min(ROBUSTNESS_SEARCH_LIMIT, votes, Math.max(1, Math.floor(ROBUSTNESS_WORK / generators ** 3)));
}

/** Strengths this close (natural scale; about 0.0002 Elo points) count as level: a tie for first is not a new leader. */
const LEVEL = 1e-6;

function leaderOf(params: Float64Array, present: Uint8Array, except: number): number {
  let best = -1;
  for (let g = 0; g < present.length; g++) {
    if (!present[g] || g === except) continue;
    if (best < 0 || params[g]! > params[best]! + LEVEL) best = g;
  }
  return best;
}

function removalCounts(cells: FitCells, c: number, outcome: CellOutcome): Float64Array {
  return outcome === 0 ? cells.winI : outcome === 1 ? cells.winJ : cells.ties;
}

/** The vote (cell, outcome) whose removal is estimated to narrow the leader's gap the most. */
function mostNarrowingVote(
  model: PairModel,
  n: number,
  cells: FitCells,
  params: Float64Array,
  u: Float64Array,
): { cell: number; outcome: CellOutcome } | null {
  let best: { cell: number; outcome: CellOutcome } | null = null;
  let bestChange = Infinity;
  for (let c = 0; c < cells.cellI.length; c++) {
    for (const outcome of [0, 1, 2] as const) {
      if (removalCounts(cells, c, outcome)[c]! <= 0) continue;
      const change = -model.voteGradientDot(params, n, cells.cellI[c]!, cells.cellJ[c]!, outcome, u);
      if (change < bestChange) {
        bestChange = change;
        best = { cell: c, outcome };
      }
    }
  }
  return best;
}

/** u = (−H)⁻¹(e_leader − e_runnerUp) at `params`. */
function gapDirection(
  model: PairModel,
  n: number,
  cells: FitCells,
  params: Float64Array,
  leader: number,
  runnerUp: number,
): Float64Array {
  const m = params.length;
  const hess = new Float64Array(m * m);
  model.evaluate(params, n, cells, new Float64Array(m), hess);
  for (let k = 0; k < hess.length; k++) hess[k] = -hess[k]!;
  const target = new Float64Array(m);
  target[leader] = 1;
  target[runnerUp] = -1;
  const u = new Float64Array(m);
  choleskySolve(hess, target, u);
  return u;
}

export function leaderRobustness(table: VoteTable, model: PairModel, fitted: Float64Array): Robustness | null {
  const n = table.generators.length;
  const cells: FitCells = {
    cellI: table.cellI,
    cellJ: table.cellJ,
    winI: Float64Array.from(table.totals.winI),
    winJ: Float64Array.from(table.totals.winJ),
    ties: Float64Array.from(table.totals.ties),
  };
  let present = generatorsWithVotes(cells, n);
  const leader = leaderOf(fitted, present, -1);
  if (leader < 0 || leaderOf(fitted, present, leader) < 0) return null;
  const searchLimit = robustnessSearchLimit(table.votes, n);
  const result = (votes: number | null, newLeader: number): Robustness => ({
    leader: table.generators[leader]!,
    votesToChangeLeader: votes,
    newLeader: votes === null ? null : table.generators[newLeader]!,
    method: "greedy",
    searchLimit,
  });
  let params = fitted;
  for (let step = 1; step <= searchLimit; step++) {
    const runnerUp = leaderOf(params, present, leader);
    if (runnerUp < 0) break;
    const u = gapDirection(model, n, cells, params, leader, runnerUp);
    const vote = mostNarrowingVote(model, n, cells, params, u);
    if (!vote) break;
    const counts = removalCounts(cells, vote.cell, vote.outcome);
    counts[vote.cell] = counts[vote.cell]! - 1;
    params = fitModel(model, n, cells, params);
    present = generatorsWithVotes(cells, n);
    const top = leaderOf(params, present, -1);
    if (top < 0) break;
    if (!present[leader] || params[top]! > params[leader]! + LEVEL) return result(step, top);
  }
  return result(null, -1);
}
