/**
 * Key-frame selection over per-frame feature vectors (see frame-features.ts):
 * - density peaks (Rodriguez & Laio 2014, as used by Sora Detector, arXiv 2405.04180),
 * - scene changes,
 * - uniform spreading (runs that send N evenly spaced frames).
 * All functions are deterministic and return ascending frame indices.
 */

import { featureDistance } from "./frame-features";

/** Pairwise distances of n points, upper triangle without the diagonal, row by row. */
type CondensedDistances = { count: number; values: Float64Array };

function assertSameLength(features: readonly Float32Array[]): number {
  const dimension = features[0]?.length ?? 0;
  for (const [index, vector] of features.entries()) {
    if (vector.length !== dimension)
      throw new RangeError(`Feature ${index} has length ${vector.length}, expected ${dimension}.`);
  }
  return dimension;
}

function condensedIndex(count: number, i: number, j: number): number {
  const low = i < j ? i : j;
  const high = i < j ? j : i;
  return low * count - (low * (low + 1)) / 2 + (high - low - 1);
}

function distanceBetween(distances: CondensedDistances, i: number, j: number): number {
  if (i === j) return 0;
  return distances.values[condensedIndex(distances.count, i, j)] ?? 0;
}

function pairwiseDistances(features: readonly Float32Array[]): CondensedDistances {
  const count = features.length;
  const dimension = assertSameLength(features);
  // One contiguous buffer keeps the O(n²·d) inner loop cache-friendly.
  const packed = new Float64Array(count * dimension);
  features.forEach((vector, index) => packed.set(vector, index * dimension));
  const values = new Float64Array((count * (count - 1)) / 2);
  let cursor = 0;
  for (let i = 0; i < count; i++) {
    const offsetI = i * dimension;
    for (let j = i + 1; j < count; j++) {
      const offsetJ = j * dimension;
      // Four accumulators let the JIT overlap the multiply-adds; this loop is the whole cost for long videos.
      let sum0 = 0;
      let sum1 = 0;
      let sum2 = 0;
      let sum3 = 0;
      let k = 0;
      for (; k + 3 < dimension; k += 4) {
        const difference0 = packed[offsetI + k]! - packed[offsetJ + k]!;
        const difference1 = packed[offsetI + k + 1]! - packed[offsetJ + k + 1]!;
        const difference2 = packed[offsetI + k + 2]! - packed[offsetJ + k + 2]!;
        const difference3 = packed[offsetI + k + 3]! - packed[offsetJ + k + 3]!;
        sum0 += difference0 * difference0;
        sum1 += difference1 * difference1;
        sum2 += difference2 * difference2;
        sum3 += difference3 * difference3;
      }
      for (; k < dimension; k++) {
        const difference = packed[offsetI + k]! - packed[offsetJ + k]!;
        sum0 += difference * difference;
      }
      values[cursor++] = Math.sqrt(sum0 + sum1 + sum2 + sum3);
    }
  }
  return { count, values };
}

/** The k-th smallest value (0-based) of `values`, reordering it in place; three-way partitioning copes with many equal values. */
function selectKth(values: Float64Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const a = values[low]!;
    const b = values[(low + high) >> 1]!;
    const c = values[high]!;
    const pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    let lessEnd = low;
    let cursor = low;
    let greaterStart = high;
    while (cursor <= greaterStart) {
      const value = values[cursor]!;
      if (value < pivot) {
        values[cursor] = values[lessEnd]!;
        values[lessEnd] = value;
        lessEnd++;
        cursor++;
      } else if (value > pivot) {
        values[cursor] = values[greaterStart]!;
        values[greaterStart] = value;
        greaterStart--;
      } else {
        cursor++;
      }
    }
    if (k < lessEnd) high = lessEnd - 1;
    else if (k > greaterStart) low = greaterStart + 1;
    else return pivot;
  }
  return values[k]!;
}

/** Nearest-rank percentile: the value at rank ceil(p·M) of the M values in ascending order. */
function nearestRankPercentile(values: Float64Array, fraction: number): number {
  if (values.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(fraction * values.length));
  return selectKth(values.slice(), rank - 1);
}

export const AUTO_CUTOFF_PERCENTILE = 0.02;

/**
 * Rodriguez & Laio's rule of thumb: dc such that each point has on average about 2% of the others as
 * neighbours, i.e. the 2% nearest-rank percentile of all pairwise distances. When duplicate frames make
 * that 0, the percentile of the positive distances is used instead, since dc = 0 would reduce densities
 * to duplicate counts; when every distance is 0 the result is 0 (densities are then all equal anyway).
 */
function autoCutoff(distances: CondensedDistances): number {
  const cutoff = nearestRankPercentile(distances.values, AUTO_CUTOFF_PERCENTILE);
  if (cutoff > 0) return cutoff;
  const positive = distances.values.filter((distance) => distance > 0);
  return nearestRankPercentile(positive, AUTO_CUTOFF_PERCENTILE);
}

export type DensityPeaks = {
  /** Gaussian local density ρ_i = Σ_{j≠i} exp(−(d_ij/dc)²). */
  rho: Float64Array;
  /** δ_i: distance to the nearest higher-ranked frame; for the top-ranked frame, its largest distance to any frame. */
  delta: Float64Array;
  /** γ_i = ρ_i·δ_i: the key-frame score. */
  gamma: Float64Array;
  /** The higher-ranked frame at distance δ_i (lowest index among equals), −1 for the top-ranked frame. */
  nearestHigher: Int32Array;
  /** The cutoff distance dc used. */
  cutoff: number;
};

/**
 * Densities are compared on a 1e-9 grid so frames that are exact duplicates tie regardless of the
 * floating-point summation order; the grid is far below any density difference that means something.
 */
function densityRankKey(rho: number): number {
  return Math.round(rho * 1e9);
}

function densityPeaksOfDistances(distances: CondensedDistances, cutoff: number): DensityPeaks {
  const count = distances.count;
  const rho = new Float64Array(count);
  const delta = new Float64Array(count);
  const gamma = new Float64Array(count);
  const nearestHigher = new Int32Array(count).fill(-1);

  const inverseCutoffSquared = cutoff > 0 ? 1 / (cutoff * cutoff) : 0;
  let cursor = 0;
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      const distance = distances.values[cursor++]!;
      // dc = 0 is the kernel's limit: only exact duplicates count as neighbours.
      const weight = cutoff > 0 ? Math.exp(-distance * distance * inverseCutoffSquared) : distance === 0 ? 1 : 0;
      rho[i] = rho[i]! + weight;
      rho[j] = rho[j]! + weight;
    }
  }

  // The paper's "higher density" made a strict total order: equal densities rank the lower index higher,
  // so exactly one frame (the top) has no higher-ranked frame.
  const rankKeys = Array.from(rho, densityRankKey);
  const ranking = Array.from({ length: count }, (_, index) => index).sort(
    (a, b) => rankKeys[b]! - rankKeys[a]! || a - b,
  );
  for (let position = 0; position < count; position++) {
    const frame = ranking[position]!;
    if (position === 0) {
      let farthest = 0;
      for (let other = 0; other < count; other++)
        farthest = Math.max(farthest, distanceBetween(distances, frame, other));
      delta[frame] = farthest;
      continue;
    }
    let nearest = Number.POSITIVE_INFINITY;
    let nearestFrame = -1;
    for (let above = 0; above < position; above++) {
      const other = ranking[above]!;
      const distance = distanceBetween(distances, frame, other);
      if (distance < nearest || (distance === nearest && other < nearestFrame)) {
        nearest = distance;
        nearestFrame = other;
      }
    }
    delta[frame] = nearest;
    nearestHigher[frame] = nearestFrame;
  }
  for (let i = 0; i < count; i++) gamma[i] = rho[i]! * delta[i]!;
  return { rho, delta, gamma, nearestHigher, cutoff };
}

function checkCutoff(cutoff: number | "auto"): void {
  if (cutoff !== "auto" && !(Number.isFinite(cutoff) && cutoff >= 0))
    throw new RangeError(`Cutoff must be "auto" or a finite number ≥ 0, got ${cutoff}.`);
}

/** ρ, δ and γ of every frame (Rodriguez & Laio 2014). O(n²·d) time; n(n−1)/2 doubles of memory (16 MB at n = 2,000). */
export function densityPeaks(features: readonly Float32Array[], cutoff: number | "auto" = "auto"): DensityPeaks {
  checkCutoff(cutoff);
  const distances = pairwiseDistances(features);
  return densityPeaksOfDistances(distances, cutoff === "auto" ? autoCutoff(distances) : cutoff);
}

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be an integer ≥ 0, got ${value}.`);
}

/**
 * The m frames with the highest γ (ties → lower index), ascending.
 *
 * Frames with γ = 0 (exact duplicates of a higher-ranked frame, or so isolated under a tiny explicit
 * cutoff that their density underflows) say nothing about the content, so
 * when fewer than m frames have γ > 0 the rest are filled in time: repeatedly the frame farthest (in
 * index) from every chosen frame, ties → lower index. When no frame has γ > 0 (e.g. all frames
 * identical) the m frames are spread uniformly (selectUniformFrames).
 */
export function selectKeyFramesDensityPeaks(
  features: readonly Float32Array[],
  options: { m: number; cutoff?: number | "auto" },
): number[] {
  const { m, cutoff = "auto" } = options;
  checkCount("m", m);
  checkCutoff(cutoff);
  assertSameLength(features);
  const count = features.length;
  if (m === 0) return [];
  if (m >= count) return Array.from({ length: count }, (_, index) => index);

  const { gamma } = densityPeaks(features, cutoff);
  const informative = Array.from({ length: count }, (_, index) => index)
    .filter((index) => gamma[index]! > 0)
    .sort((a, b) => gamma[b]! - gamma[a]! || a - b);
  if (informative.length === 0) return selectUniformFrames(count, m);

  const chosen = informative.slice(0, m);
  if (chosen.length < m) fillFarthestInTime(chosen, count, m);
  return chosen.sort((a, b) => a - b);
}

function fillFarthestInTime(chosen: number[], count: number, target: number): void {
  const gap = new Float64Array(count).fill(Number.POSITIVE_INFINITY);
  const narrow = (picked: number) => {
    for (let index = 0; index < count; index++) gap[index] = Math.min(gap[index]!, Math.abs(index - picked));
  };
  chosen.forEach(narrow);
  while (chosen.length < target) {
    let best = -1;
    for (let index = 0; index < count; index++) if (best === -1 || gap[index]! > gap[best]!) best = index;
    chosen.push(best);
    narrow(best);
  }
}

/**
 * Default number of key frames for a video: one per two seconds, at least 3 and at most 12
 * (clamp(round(durationS / 2), 3, 12); halves round up). The selector caps it at the number of sampled
 * frames. An unknown or non-positive duration gets 3.
 */
export function defaultKeyFrameCount(durationS: number): number {
  if (!Number.isFinite(durationS) || durationS <= 0) return 3;
  return Math.min(12, Math.max(3, Math.round(durationS / 2)));
}

/** Automatic scene-change threshold: mean + 2·(population) standard deviation of the consecutive distances. */
export function autoSceneChangeThreshold(consecutiveDistances: readonly number[]): number {
  if (consecutiveDistances.length === 0) return 0;
  const mean = consecutiveDistances.reduce((sum, distance) => sum + distance, 0) / consecutiveDistances.length;
  const variance =
    consecutiveDistances.reduce((sum, distance) => sum + (distance - mean) ** 2, 0) / consecutiveDistances.length;
  return mean + 2 * Math.sqrt(variance);
}

/**
 * Frame 0, then every frame whose distance to the previous sampled frame exceeds `threshold`
 * (default "auto": autoSceneChangeThreshold). Changes are taken biggest first (ties → lower index), each
 * kept only if at least `minGap` frames (default 1) from every frame already kept, frame 0 included,
 * until `max` frames (default unlimited, frame 0 included) are kept. Returns ascending indices.
 */
export function selectSceneChangeKeyFrames(
  features: readonly Float32Array[],
  options: { threshold?: number | "auto"; minGap?: number; max?: number } = {},
): number[] {
  const { threshold = "auto", minGap = 1, max = Number.POSITIVE_INFINITY } = options;
  if (threshold !== "auto" && !(Number.isFinite(threshold) && threshold >= 0))
    throw new RangeError(`Threshold must be "auto" or a finite number ≥ 0, got ${threshold}.`);
  if (!Number.isInteger(minGap) || minGap < 1) throw new RangeError(`minGap must be an integer ≥ 1, got ${minGap}.`);
  if (!(max === Number.POSITIVE_INFINITY || (Number.isInteger(max) && max >= 1)))
    throw new RangeError(`max must be an integer ≥ 1, got ${max}.`);
  assertSameLength(features);
  if (features.length === 0) return [];

  const changes: number[] = [];
  for (let index = 1; index < features.length; index++)
    changes.push(featureDistance(features[index - 1]!, features[index]!));
  const limit = threshold === "auto" ? autoSceneChangeThreshold(changes) : threshold;

  const candidates = changes
    .map((change, position) => ({ frame: position + 1, change }))
    .filter(({ change }) => change > limit)
    .sort((a, b) => b.change - a.change || a.frame - b.frame);
  const kept = [0];
  for (const { frame } of candidates) {
    if (kept.length >= max) break;
    if (kept.every((other) => Math.abs(frame - other) >= minGap)) kept.push(frame);
  }
  return kept.sort((a, b) => a - b);
}

/**
 * n frame indices spread uniformly: the frame at the centre of each of n equal segments,
 * floor((i + 0.5)·frameCount / n). When n ≥ frameCount every frame is returned once.
 */
export function selectUniformFrames(frameCount: number, n: number): number[] {
  checkCount("frameCount", frameCount);
  checkCount("n", n);
  if (n >= frameCount) return Array.from({ length: frameCount }, (_, index) => index);
  const indices = new Set<number>();
  // Integer arithmetic keeps the centres exact.
  for (let segment = 0; segment < n; segment++) indices.add(Math.floor(((2 * segment + 1) * frameCount) / (2 * n)));
  return [...indices].sort((a, b) => a - b);
}
