import type { CellCounts } from "./aggregate";

/**
 * The two pairwise models a leaderboard is fitted with, by Newton's method on the counts per generator pair.
 *
 * Bradley–Terry as FastChat fits it (fastchat/serve/monitor/rating_systems.py `compute_bt`, and the older
 * `compute_mle_elo` in elo_analysis.py): P(i beats j) = 1 / (1 + e^-(θi − θj)); a tie is half a win to each side
 * (the "outcome 0.5" of its logistic loss); no intercept (no first-position term); the rating is θ on the Elo
 * scale, 400 points per factor of 10 in odds: rating = 1000 + θ · 400 / ln 10, centred so the mean rating is 1000
 * (FastChat instead pins one named model at a fixed rating; only the offset differs). FastChat minimises the loss
 * over every distinct (pair, outcome) row with L-BFGS; here the counts are summed per generator pair first and
 * Newton's method (with a backtracking line search) solves the same maximum, which takes a handful of steps.
 *
 * Davidson (1970): a tie is its own outcome, P(i) : P(j) : P(tie) = πi : πj : ν·√(πi·πj), with θ = ln π on the
 * same Elo scale and ν (the tie parameter) fitted with the strengths.
 *
 * Both add a tiny ridge, −(RIDGE/2)·Σθ² (a Normal(0, 1/RIDGE) prior on the natural-scale strengths, and on ln ν
 * for Davidson), so an undefeated generator, a winless one, or a group that never met the others keeps a finite
 * rating; the ridge also centres each connected group on zero, which is where the mean-1000 anchor puts it. Its
 * pull on a generator with v votes is about RIDGE·θ / (v/4), a small fraction of an Elo point from a few dozen votes.
 */
export const RIDGE = 1e-3;
export const ELO_PER_NATURAL = 400 / Math.LN10;
export const ELO_ANCHOR = 1000;

export interface FitCells extends CellCounts {
  cellI: Int32Array;
  cellJ: Int32Array;
}

/** 0: i won, 1: j won, 2: a tie. */
export type CellOutcome = 0 | 1 | 2;

export interface PairModel {
  /** Parameters beyond the n strengths (Davidson's ln ν). */
  extraParameters: number;
  /** The penalised log-likelihood; adds its gradient and Hessian (m × m, row-major) into the arrays given. */
  evaluate(
    params: Float64Array,
    n: number,
    cells: FitCells,
    grad: Float64Array | null,
    hess: Float64Array | null,
  ): number;
  /** u · ∇(the log-likelihood of one vote of `outcome` between i and j). */
  voteGradientDot(params: Float64Array, n: number, i: number, j: number, outcome: CellOutcome, u: Float64Array): number;
}

function addRidge(params: Float64Array, grad: Float64Array | null, hess: Float64Array | null): number {
  const m = params.length;
  let penalty = 0;
  for (let k = 0; k < m; k++) {
    penalty += params[k]! * params[k]!;
    if (grad) grad[k] = grad[k]! - RIDGE * params[k]!;
    if (hess) hess[k * m + k] = hess[k * m + k]! - RIDGE;
  }
  return -(RIDGE / 2) * penalty;
}

export const bradleyTerry: PairModel = {
  extraParameters: 0,
  evaluate(params, n, cells, grad, hess) {
    if (grad) grad.fill(0);
    if (hess) hess.fill(0);
    let objective = 0;
    for (let c = 0; c < cells.cellI.length; c++) {
      const total = cells.winI[c]! + cells.winJ[c]! + cells.ties[c]!;
      if (total === 0) continue;
      const i = cells.cellI[c]!;
      const j = cells.cellJ[c]!;
      const score = cells.winI[c]! + cells.ties[c]! / 2;
      const d = params[i]! - params[j]!;
      // One exp and one log1p: ln σ(d) = −softplus(−d), ln σ(−d) = ln σ(d) − d, σ(d) from e^−|d|.
      const e = Math.exp(-Math.abs(d));
      const logWin = -(Math.log1p(e) + (d < 0 ? -d : 0));
      objective += score * logWin + (total - score) * (logWin - d);
      const p = d >= 0 ? 1 / (1 + e) : e / (1 + e);
      if (grad) {
        grad[i] = grad[i]! + score - total * p;
        grad[j] = grad[j]! - (score - total * p);
      }
      if (hess) {
        const w = total * p * (1 - p);
        hess[i * n + i] = hess[i * n + i]! - w;
        hess[j * n + j] = hess[j * n + j]! - w;
        hess[i * n + j] = hess[i * n + j]! + w;
        hess[j * n + i] = hess[j * n + i]! + w;
      }
    }
    return objective + addRidge(params, grad, hess);
  },
  voteGradientDot(params, _n, i, j, outcome, u) {
    const p = 1 / (1 + Math.exp(-(params[i]! - params[j]!)));
    const y = outcome === 0 ? 1 : outcome === 1 ? 0 : 0.5;
    return (y - p) * (u[i]! - u[j]!);
  },
};

/** Davidson's three probabilities for half the strength gap x = (θi − θj)/2 and φ = ln ν, with ln of their sum. */
function davidsonShares(x: number, phi: number): { qi: number; qj: number; qt: number; logSum: number } {
  const top = Math.max(x, -x, phi);
  const a = Math.exp(x - top);
  const b = Math.exp(-x - top);
  const t = Math.exp(phi - top);
  const sum = a + b + t;
  return { qi: a / sum, qj: b / sum, qt: t / sum, logSum: top + Math.log(sum) };
}

function addDavidsonHessian(
  hess: Float64Array,
  m: number,
  i: number,
  j: number,
  total: number,
  q: ReturnType<typeof davidsonShares>,
): void {
  const f = m - 1;
  const hxx = -total * (q.qi + q.qj - (q.qi - q.qj) ** 2);
  const hxf = total * (q.qi - q.qj) * q.qt;
  const hff = -total * q.qt * (q.qi + q.qj);
  hess[i * m + i] = hess[i * m + i]! + hxx / 4;
  hess[j * m + j] = hess[j * m + j]! + hxx / 4;
  hess[i * m + j] = hess[i * m + j]! - hxx / 4;
  hess[j * m + i] = hess[j * m + i]! - hxx / 4;
  hess[i * m + f] = hess[i * m + f]! + hxf / 2;
  hess[f * m + i] = hess[f * m + i]! + hxf / 2;
  hess[j * m + f] = hess[j * m + f]! - hxf / 2;
  hess[f * m + j] = hess[f * m + j]! - hxf / 2;
  hess[f * m + f] = hess[f * m + f]! + hff;
}

export const davidson: PairModel = {
  extraParameters: 1,
  evaluate(params, n, cells, grad, hess) {
    if (grad) grad.fill(0);
    if (hess) hess.fill(0);
    const m = n + 1;
    const phi = params[n]!;
    let objective = 0;
    for (let c = 0; c < cells.cellI.length; c++) {
      const winI = cells.winI[c]!;
      const winJ = cells.winJ[c]!;
      const ties = cells.ties[c]!;
      const total = winI + winJ + ties;
      if (total === 0) continue;
      const i = cells.cellI[c]!;
      const j = cells.cellJ[c]!;
      const x = (params[i]! - params[j]!) / 2;
      const q = davidsonShares(x, phi);
      objective += (winI - winJ) * x + ties * phi - total * q.logSum;
      if (grad) {
        const gx = winI - winJ - total * (q.qi - q.qj);
        grad[i] = grad[i]! + gx / 2;
        grad[j] = grad[j]! - gx / 2;
        grad[n] = grad[n]! + ties - total * q.qt;
      }
      if (hess) addDavidsonHessian(hess, m, i, j, total, q);
    }
    return objective + addRidge(params, grad, hess);
  },
  voteGradientDot(params, n, i, j, outcome, u) {
    const q = davidsonShares((params[i]! - params[j]!) / 2, params[n]!);
    const gx = (outcome === 0 ? 1 : outcome === 1 ? -1 : 0) - (q.qi - q.qj);
    const gf = (outcome === 2 ? 1 : 0) - q.qt;
    return (gx / 2) * (u[i]! - u[j]!) + gf * u[n]!;
  },
};

/**
 * Solves A·x = b for a symmetric positive definite A (m × m, row-major) by Cholesky; A is overwritten with its
 * factor. The fits' negated Hessians are positive definite thanks to the ridge.
 */
export function choleskySolve(a: Float64Array, b: Float64Array, x: Float64Array): void {
  const m = b.length;
  for (let j = 0; j < m; j++) {
    let diagonal = a[j * m + j]!;
    for (let k = 0; k < j; k++) diagonal -= a[j * m + k]! * a[j * m + k]!;
    const root = Math.sqrt(Math.max(diagonal, 1e-300));
    a[j * m + j] = root;
    for (let i = j + 1; i < m; i++) {
      let sum = a[i * m + j]!;
      for (let k = 0; k < j; k++) sum -= a[i * m + k]! * a[j * m + k]!;
      a[i * m + j] = sum / root;
    }
  }
  for (let i = 0; i < m; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= a[i * m + k]! * x[k]!;
    x[i] = sum / a[i * m + i]!;
  }
  for (let i = m - 1; i >= 0; i--) {
    let sum = x[i]!;
    for (let k = i + 1; k < m; k++) sum -= a[k * m + i]! * x[k]!;
    x[i] = sum / a[i * m + i]!;
  }
}

/** Below this Newton decrement (the objective's predicted rise) the step is taken without a line search, and
 * the fit stops once the decrement is below FIT_TOLERANCE. */
const QUADRATIC_REGION = 1e-6;
const FIT_TOLERANCE = 1e-18;
const MAX_NEWTON_STEPS = 200;

/** The maximum of the model's penalised likelihood, warm-started from `start` when given. */
export function fitModel(model: PairModel, n: number, cells: FitCells, start?: Float64Array): Float64Array {
  const m = n + model.extraParameters;
  let params = start ? Float64Array.from(start) : new Float64Array(m);
  let trial = new Float64Array(m);
  const grad = new Float64Array(m);
  const hess = new Float64Array(m * m);
  const step = new Float64Array(m);
  let objective = model.evaluate(params, n, cells, grad, hess);
  for (let iteration = 0; iteration < MAX_NEWTON_STEPS; iteration++) {
    for (let k = 0; k < hess.length; k++) hess[k] = -hess[k]!;
    choleskySolve(hess, grad, step);
    let decrement = 0;
    for (let k = 0; k < m; k++) decrement += grad[k]! * step[k]!;
    if (!(decrement > FIT_TOLERANCE)) break;
    let t = 1;
    for (;;) {
      for (let k = 0; k < m; k++) trial[k] = params[k]! + t * step[k]!;
      if (decrement < QUADRATIC_REGION) break;
      const candidate = model.evaluate(trial, n, cells, null, null);
      if (candidate >= objective + 1e-4 * t * decrement) break;
      t /= 2;
      if (t < 1e-12) return params;
    }
    [params, trial] = [trial, params];
    objective = model.evaluate(params, n, cells, grad, hess);
  }
  return params;
}

/** Natural-scale strengths to Elo ratings, centred over the generators `present` (others NaN). */
export function toElo(params: Float64Array, n: number, present: (g: number) => boolean): Float64Array {
  let sum = 0;
  let count = 0;
  for (let g = 0; g < n; g++) {
    if (!present(g)) continue;
    sum += params[g]!;
    count++;
  }
  const mean = count > 0 ? sum / count : 0;
  const ratings = new Float64Array(n);
  for (let g = 0; g < n; g++) ratings[g] = present(g) ? ELO_ANCHOR + (params[g]! - mean) * ELO_PER_NATURAL : NaN;
  return ratings;
}
