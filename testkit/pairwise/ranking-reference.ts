/**
 * A slow reference for the pairwise ratings, written from the formulas and independent of
 * lib/pairwise/ranking's Newton solver: plain gradient ascent, vote row by vote row, on the penalised
 * log-likelihood (the same tiny ridge, so the two maxima are the same point).
 *
 * Bradley–Terry with ties as half a win: ℓ = Σ w·[y·ln σ(θi − θj) + (1 − y)·ln σ(θj − θi)], y ∈ {1, 0, ½}.
 * Davidson: P(i) = πi / D, P(j) = πj / D, P(tie) = ν√(πiπj) / D, D = πi + πj + ν√(πiπj), π = e^θ, ν = e^φ.
 */
import { kendallTauB } from "../../lib/pairwise/ranking/correlation";
import type { Ranking, RankingCorrelation } from "../../lib/pairwise/ranking/ranking.types";

export interface ReferenceRow {
  i: number;
  j: number;
  outcome: "i" | "j" | "tie";
  weight: number;
}

const ELO_PER_NATURAL = 400 / Math.LN10;

/** 1 / a bound on the Hessian's largest eigenvalue (Gershgorin: half a generator's votes for Bradley–Terry; all
 * votes for Davidson, whose ln ν touches every vote), so gradient ascent never overshoots. */
function stepSize(n: number, rows: readonly ReferenceRow[], ridge: number, withTieParameter: boolean): number {
  const incident = new Float64Array(n);
  let total = 0;
  for (const row of rows) {
    incident[row.i] = incident[row.i]! + row.weight;
    incident[row.j] = incident[row.j]! + row.weight;
    total += row.weight;
  }
  return 1 / ((withTieParameter ? Math.max(...incident, total) : Math.max(...incident) / 2) + ridge);
}

export function referenceBradleyTerry(
  n: number,
  rows: readonly ReferenceRow[],
  ridge: number,
  tolerance = 1e-10,
): Float64Array {
  const theta = new Float64Array(n);
  const grad = new Float64Array(n);
  const eta = stepSize(n, rows, ridge, false);
  for (let iteration = 0; iteration < 5_000_000; iteration++) {
    for (let g = 0; g < n; g++) grad[g] = -ridge * theta[g]!;
    for (const row of rows) {
      const y = row.outcome === "i" ? 1 : row.outcome === "j" ? 0 : 0.5;
      const p = 1 / (1 + Math.exp(theta[row.j]! - theta[row.i]!));
      grad[row.i] = grad[row.i]! + row.weight * (y - p);
      grad[row.j] = grad[row.j]! - row.weight * (y - p);
    }
    let largest = 0;
    for (let g = 0; g < n; g++) {
      theta[g] = theta[g]! + eta * grad[g]!;
      largest = Math.max(largest, Math.abs(grad[g]!));
    }
    if (largest < tolerance) break;
  }
  return theta;
}

export function referenceDavidson(
  n: number,
  rows: readonly ReferenceRow[],
  ridge: number,
  tolerance = 1e-10,
): { theta: Float64Array; nu: number } {
  const theta = new Float64Array(n);
  let phi = 0;
  const grad = new Float64Array(n);
  const eta = stepSize(n, rows, ridge, true);
  for (let iteration = 0; iteration < 5_000_000; iteration++) {
    for (let g = 0; g < n; g++) grad[g] = -ridge * theta[g]!;
    let gradPhi = -ridge * phi;
    for (const row of rows) {
      const pi = Math.exp(theta[row.i]!);
      const pj = Math.exp(theta[row.j]!);
      const tie = Math.exp(phi) * Math.sqrt(pi * pj);
      const d = pi + pj + tie;
      // ∂ln D/∂θi = (πi + tie/2)/D, ∂ln D/∂θj = (πj + tie/2)/D, ∂ln D/∂φ = tie/D
      const own = row.outcome === "i" ? [1, 0, 0] : row.outcome === "j" ? [0, 1, 0] : [0.5, 0.5, 1];
      grad[row.i] = grad[row.i]! + row.weight * (own[0]! - (pi + tie / 2) / d);
      grad[row.j] = grad[row.j]! + row.weight * (own[1]! - (pj + tie / 2) / d);
      gradPhi += row.weight * (own[2]! - tie / d);
    }
    let largest = Math.abs(gradPhi);
    for (let g = 0; g < n; g++) {
      theta[g] = theta[g]! + eta * grad[g]!;
      largest = Math.max(largest, Math.abs(grad[g]!));
    }
    phi += eta * gradPhi;
    if (largest < tolerance) break;
  }
  return { theta, nu: Math.exp(phi) };
}

/** Elo ratings centred on 1000 over the generators `present`, NaN for the others. */
export function referenceElo(theta: Float64Array, present: readonly boolean[]): number[] {
  const rated = [...theta].filter((_, g) => present[g]);
  const mean = rated.reduce((sum, x) => sum + x, 0) / rated.length;
  return [...theta].map((x, g) => (present[g] ? 1000 + (x - mean) * ELO_PER_NATURAL : NaN));
}

/** The percentile of sorted values with linear interpolation between order statistics (R's type 7). */
export function referencePercentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** τ-b of two finished rankings over the generators both rate; no interval (rankingCorrelation refits both on each draw for its interval). */
export function kendallTau(a: Ranking, b: Ranking): RankingCorrelation {
  const ratingB = new Map(b.ratings.map((row) => [row.generator, row.rating]));
  const shared = a.ratings.filter((row) => ratingB.has(row.generator));
  const tau = kendallTauB(
    shared.map((row) => row.rating),
    shared.map((row) => ratingB.get(row.generator)!),
  );
  return { kendallTau: tau, lower: null, upper: null, generators: shared.length };
}
