import { percentileInterval, resampler, streamSeed } from "../../stats/bootstrap";
import { weightedCounts, type CellCounts, type VoteTable } from "./aggregate";
import { fitModel, toElo, type FitCells, type PairModel } from "./fit";

/**
 * The bootstrap over prompts: draw d picks as many prompts as there are, with replacement, by
 * `resampler(streamSeed(seed, "prompts:" + d))` (lib/stats), and every vote of a picked prompt comes along (the
 * pairs of one prompt are not independent: the same videos, the same difficulty). Each draw is refitted from the
 * full data's strengths. A generator with no vote in a draw has no rating in it (NaN), and its interval is read
 * from the draws where it has one. Draws are independent streams, so any range of them can be computed apart (a
 * worker thread per range) and give the same numbers.
 */
export const INTERVAL_CONFIDENCE = 0.95;

/** How often each prompt is picked in draw d. */
export function promptWeights(seed: number, draw: number, sample: Int32Array, weights: Int32Array): void {
  resampler(streamSeed(seed, `prompts:${draw}`))(sample, sample.length);
  weights.fill(0);
  for (let k = 0; k < sample.length; k++) {
    const prompt = sample[k]!;
    weights[prompt] = weights[prompt]! + 1;
  }
}

export function emptyCellCounts(cells: number): CellCounts {
  return { winI: new Float64Array(cells), winJ: new Float64Array(cells), ties: new Float64Array(cells) };
}

/** Which generators have at least one vote in these counts. */
export function generatorsWithVotes(cells: FitCells, n: number): Uint8Array {
  const present = new Uint8Array(n);
  for (let c = 0; c < cells.cellI.length; c++) {
    if (cells.winI[c]! + cells.winJ[c]! + cells.ties[c]! === 0) continue;
    present[cells.cellI[c]!] = 1;
    present[cells.cellJ[c]!] = 1;
  }
  return present;
}

/** The fitted parameters of draw d (and the cells they were fitted on, reused across draws). */
export function fitDraw(
  table: VoteTable,
  model: PairModel,
  start: Float64Array,
  seed: number,
  draw: number,
  scratch: { sample: Int32Array; weights: Int32Array; cells: FitCells },
): Float64Array {
  promptWeights(seed, draw, scratch.sample, scratch.weights);
  weightedCounts(table, scratch.weights, scratch.cells);
  return fitModel(model, table.generators.length, scratch.cells, start);
}

export function drawScratch(table: VoteTable): { sample: Int32Array; weights: Int32Array; cells: FitCells } {
  return {
    sample: new Int32Array(table.prompts.length),
    weights: new Int32Array(table.prompts.length),
    cells: { cellI: table.cellI, cellJ: table.cellJ, ...emptyCellCounts(table.cellI.length) },
  };
}

/** Elo ratings of draws [from, to), row by row (n per draw), NaN for a generator without votes in the draw. */
export function bootstrapRatings(
  table: VoteTable,
  model: PairModel,
  start: Float64Array,
  seed: number,
  from: number,
  to: number,
): Float64Array {
  const n = table.generators.length;
  const out = new Float64Array((to - from) * n);
  const scratch = drawScratch(table);
  for (let d = from; d < to; d++) {
    const params = fitDraw(table, model, start, seed, d, scratch);
    const present = generatorsWithVotes(scratch.cells, n);
    out.set(
      toElo(params, n, (g) => present[g] === 1),
      (d - from) * n,
    );
  }
  return out;
}

/** Per generator, the 2.5th and 97.5th percentiles of its ratings over the draws (null: no draw rated it). */
export function ratingIntervals(draws: Float64Array, n: number): ({ lower: number; upper: number } | null)[] {
  const count = n === 0 ? 0 : draws.length / n;
  const column = new Float64Array(count);
  return Array.from({ length: n }, (_, g) => {
    for (let d = 0; d < count; d++) column[d] = draws[d * n + g]!;
    return percentileInterval(column, INTERVAL_CONFIDENCE);
  });
}
