import type { Vote } from "../verdicts";

/**
 * A small Bradley–Terry fit for the active plan: the maximum a posteriori strengths θ (natural log-odds scale,
 * P(i beats j) = σ(θ_i − θ_j)) under a weak Gaussian prior N(0, 1/λ) on each θ, and the Laplace approximation of the
 * posterior: covariance C = H⁻¹, H the negative log posterior's Hessian at θ (the Fisher information of the votes
 * plus λI). A tie counts as half a win to each side, as FastChat's compute_mle_elo does. The prior keeps θ finite
 * for a generator that never lost and gives a generator with no vote a variance of 1/λ, the most uncertain of all.
 * The ranking's own fit (Elo scale, bootstrap over prompts) is lib/pairwise/ranking/'s; this one only steers.
 */
export const PRIOR_PRECISION = 0.01;
const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-10;

export interface LaplaceFit {
  generators: string[];
  index: Map<string, number>;
  theta: Float64Array;
  /** Row-major k × k posterior covariance. */
  covariance: Float64Array;
}

/** Votes summed per ordered generator pair: comparisons and the wins of the first (ties as half). */
export interface Tally {
  i: number;
  j: number;
  count: number;
  wins: number;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The verdict as the first generator's score: 1 a win, 0 a loss, ½ a tie. */
export function scoreOfA(verdict: Vote["verdict"]): number {
  switch (verdict) {
    case "A":
      return 1;
    case "B":
      return 0;
    case "tie_good":
    case "tie_bad":
      return 0.5;
    default: {
      const unknown: never = verdict;
      throw new RangeError(`unknown verdict ${String(unknown)}`);
    }
  }
}

function tallies(votes: readonly Vote[], index: Map<string, number>): Tally[] {
  const byPair = new Map<string, Tally>();
  for (const vote of votes) {
    const i = index.get(vote.generatorA);
    const j = index.get(vote.generatorB);
    if (i === undefined || j === undefined || i === j) continue;
    const key = `${i},${j}`;
    const tally = byPair.get(key) ?? { i, j, count: 0, wins: 0 };
    tally.count++;
    tally.wins += scoreOfA(vote.verdict);
    byPair.set(key, tally);
  }
  return [...byPair.values()];
}

/** H = Σ count · p(1 − p) · (e_i − e_j)(e_i − e_j)ᵀ + λI and the gradient of the log posterior. */
function hessianAndGradient(theta: Float64Array, data: readonly Tally[], lambda: number) {
  const k = theta.length;
  const hessian = new Float64Array(k * k);
  const gradient = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    hessian[i * k + i] = lambda;
    gradient[i] = -lambda * theta[i]!;
  }
  for (const { i, j, count, wins } of data) {
    const p = sigmoid(theta[i]! - theta[j]!);
    const w = count * p * (1 - p);
    const residual = wins - count * p;
    gradient[i]! += residual;
    gradient[j]! -= residual;
    hessian[i * k + i]! += w;
    hessian[j * k + j]! += w;
    hessian[i * k + j]! -= w;
    hessian[j * k + i]! -= w;
  }
  return { hessian, gradient };
}

/** The inverse of a symmetric positive definite matrix by Gauss–Jordan elimination (k is a few dozen at most). */
export function invert(matrix: Float64Array, k: number): Float64Array {
  const a = Float64Array.from(matrix);
  const inverse = new Float64Array(k * k);
  for (let i = 0; i < k; i++) inverse[i * k + i] = 1;
  for (let column = 0; column < k; column++) {
    let pivot = column;
    for (let row = column + 1; row < k; row++) {
      if (Math.abs(a[row * k + column]!) > Math.abs(a[pivot * k + column]!)) pivot = row;
    }
    if (pivot !== column) {
      for (let c = 0; c < k; c++) {
        [a[column * k + c], a[pivot * k + c]] = [a[pivot * k + c]!, a[column * k + c]!];
        [inverse[column * k + c], inverse[pivot * k + c]] = [inverse[pivot * k + c]!, inverse[column * k + c]!];
      }
    }
    const scale = 1 / a[column * k + column]!;
    for (let c = 0; c < k; c++) {
      a[column * k + c]! *= scale;
      inverse[column * k + c]! *= scale;
    }
    for (let row = 0; row < k; row++) {
      const factor = a[row * k + column]!;
      if (row === column || factor === 0) continue;
      for (let c = 0; c < k; c++) {
        a[row * k + c]! -= factor * a[column * k + c]!;
        inverse[row * k + c]! -= factor * inverse[column * k + c]!;
      }
    }
  }
  return inverse;
}

/** Newton's method on the log posterior (concave: it converges from 0), then C = H⁻¹ at the optimum. */
export function fitLaplace(
  votes: readonly Vote[],
  generators: readonly string[],
  lambda = PRIOR_PRECISION,
): LaplaceFit {
  const names = [...new Set(generators)];
  const index = new Map(names.map((name, i) => [name, i]));
  const { theta, covariance } = fitTallies(tallies(votes, index), names.length, lambda);
  return { generators: names, index, theta, covariance };
}

/** The fit over tallies of generators 0 … k − 1 (fitLaplace's core; a simulation keeps tallies, not votes). */
export function fitTallies(data: readonly Tally[], k: number, lambda = PRIOR_PRECISION) {
  const theta = new Float64Array(k);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const { hessian, gradient } = hessianAndGradient(theta, data, lambda);
    const inverse = invert(hessian, k);
    let largest = 0;
    for (let i = 0; i < k; i++) {
      let step = 0;
      for (let j = 0; j < k; j++) step += inverse[i * k + j]! * gradient[j]!;
      theta[i]! += step;
      largest = Math.max(largest, Math.abs(step));
    }
    if (largest < TOLERANCE) break;
  }
  return { theta, covariance: invert(hessianAndGradient(theta, data, lambda).hessian, k) };
}

/** Var(θ_i − θ_j) = C_ii + C_jj − 2 C_ij. */
export function differenceVariance(fit: LaplaceFit, i: number, j: number): number {
  const k = fit.generators.length;
  const c = fit.covariance;
  return Math.max(0, c[i * k + i]! + c[j * k + j]! - 2 * c[i * k + j]!);
}

/**
 * The covariance after one more comparison of i and j, by Sherman–Morrison: H' = H + w·xxᵀ with x = e_i − e_j and
 * w = p(1 − p) the comparison's Fisher information, so C' = C − w·(Cx)(Cx)ᵀ / (1 + w·xᵀCx).
 */
export function addComparison(fit: LaplaceFit, i: number, j: number): void {
  const k = fit.generators.length;
  const c = fit.covariance;
  const p = sigmoid(fit.theta[i]! - fit.theta[j]!);
  const w = p * (1 - p);
  const cx = new Float64Array(k);
  for (let r = 0; r < k; r++) cx[r] = c[r * k + i]! - c[r * k + j]!;
  const denominator = 1 + w * (cx[i]! - cx[j]!);
  for (let r = 0; r < k; r++) {
    for (let s = 0; s < k; s++) c[r * k + s]! -= (w * cx[r]! * cx[s]!) / denominator;
  }
}

/** P(i beats j) under the fit. */
export function winProbability(fit: LaplaceFit, i: number, j: number): number {
  return sigmoid(fit.theta[i]! - fit.theta[j]!);
}
