/**
 * A generator leaderboard with confidence intervals, for any per-video score: VBench-2.0's dimensions, a run's
 * metric per model. Task-agnostic and pure: the caller hands in one row per video (its generator, prompt,
 * dimension and value) and gets, per generator,
 * - each dimension's score, the mean over its videos there (VBench's "mean over videos"), with n videos, or the
 *   caller's `scoreRule` of the dimension's tally (VBench-2.0's Motion_Order_Understanding: 0 when more than 90%
 *   of the videos are -1), applied alike to the estimate, every bootstrap replicate and every pair;
 * - each category's value, the mean of its dimensions' scores, and the total, the mean of the category values
 *   (VBench-2.0's scripts/cal_final_score.py), or the mean of the dimension scores when there are no categories;
 *   a dimension the generator has no video in counts 0 with `missingCountsZero` (as that script does), else it
 *   is left out of the means;
 * - a percentile-bootstrap interval for each of them, resampling prompts with replacement within each dimension
 *   (a drawn prompt brings all its videos: videos of one prompt are not independent), every dimension redrawn in
 *   each replicate, so a category or total interval carries every dimension's uncertainty;
 * and, per pair of generators, the difference of their totals over the prompts both have, with a paired
 * bootstrap interval and p-value.
 *
 * Reproducible: a dimension's draws come from the seed and the prompts drawn from, and a pair's own draws (when
 * the two have different prompts) from the seed and both names, so a generator's interval stays the same whichever
 * other generators are on the board.
 */
import {
  checkedBootstrapOptions,
  pairedBootstrapP,
  percentileInterval,
  resampler,
  streamSeed,
} from "../stats/bootstrap";
import { StatsInputError } from "../stats/input-error";

export { kendallTau } from "./ranking-agreement";

/** One video's value: VBench has several videos per prompt per generator, each a row. */
export interface LeaderboardRow {
  generator: string;
  /** What videos of the same prompt share (the prompt text); the bootstrap resamples these. */
  promptKey: string;
  dimension: string;
  /** Null: the video has no value (not counted in the mean, but counted among the videos a `scoreRule` sees). */
  value: number | null;
  /** Not evaluable (VBench's -1): not counted in the mean; a `scoreRule` sees how many there are. */
  excluded?: boolean;
}

/** What a dimension's score is computed from, over one generator's videos there (or a bootstrap draw of them). */
export interface ScoreTally {
  /** Sum of the counted values. */
  sum: number;
  /** Videos with a value that is not excluded. */
  counted: number;
  /** Videos excluded (VBench's -1). */
  excluded: number;
  /** Every video: counted, excluded and those without a value. */
  videos: number;
}

/** A dimension's score from its tally; null when it has none. */
export type ScoreRule = (dimension: string, tally: ScoreTally) => number | null;

/** The mean of the counted values (null when none is counted): every dimension's score unless a rule says otherwise. */
export const meanOfTally = (tally: ScoreTally): number | null =>
  tally.counted === 0 ? null : tally.sum / tally.counted;

export interface LeaderboardInput {
  rows: readonly LeaderboardRow[];
  /** Every dimension, in display order; a row of any other dimension is refused. */
  dimensions: readonly string[];
  /** Category → its dimensions. Without it the total is the mean of the dimension scores. */
  categories?: Readonly<Record<string, readonly string[]>>;
  /** A dimension a generator has no video in counts 0 (VBench-2.0's cal_final_score.py); else it is left out. */
  missingCountsZero?: boolean;
  /** The ranking's direction (default true: a higher total ranks first). */
  higherIsBetter?: boolean;
  /** A dimension's score from its tally (default: the mean of the counted values, `meanOfTally`). */
  scoreRule?: ScoreRule;
  /** Resamples (default 1000), the seed, and the interval's coverage (default 0.95). */
  bootstrap: { samples?: number; seed: number; confidence?: number };
}

/** An estimate with its percentile interval; all null when there is nothing to estimate from. */
export interface LeaderboardEstimate {
  value: number | null;
  lower: number | null;
  upper: number | null;
}

export interface LeaderboardDimension {
  /** The mean over the generator's videos in the dimension (or the score rule's value); null when it has none. */
  score: number | null;
  lower: number | null;
  upper: number | null;
  /** Videos counted (with a value, not excluded). */
  n: number;
  /** Videos excluded (VBench's -1). */
  excluded: number;
  /** Distinct prompts of those videos (the bootstrap's units). */
  prompts: number;
}

export interface LeaderboardGenerator {
  model: string;
  /** 1 for the best total; equal totals share a rank (1, 2, 2, 4); a generator without a total ranks last. */
  rank: number;
  dimensions: Record<string, LeaderboardDimension>;
  categories: Record<string, LeaderboardEstimate>;
  total: LeaderboardEstimate;
}

export interface LeaderboardPair {
  /** The better-ranked generator of the two. */
  a: string;
  b: string;
  /** (dimension, prompt) units both generators have videos for: the prompts the pair is compared on. */
  n: number;
  /** a's total minus b's, both over the shared prompts only; null when they share none. */
  difference: number | null;
  lower: number | null;
  upper: number | null;
  /** Two-sided paired-bootstrap p-value of "no difference" (lib/stats/bootstrap.ts pairedBootstrapP), at least 2/(samples + 1). */
  p: number | null;
}

export interface LeaderboardResult {
  dimensions: string[];
  categories: Record<string, string[]> | null;
  missingCountsZero: boolean;
  higherIsBetter: boolean;
  bootstrap: { samples: number; seed: number; confidence: number };
  /** In ranking order. */
  generators: LeaderboardGenerator[];
  /** Every pair, a before b in ranking order. */
  pairs: LeaderboardPair[];
  /** Generator names, best first (equal totals by name). */
  ranking: string[];
}

/** One generator's videos in one dimension, tallied per prompt (prompts in sorted order). */
interface PromptSums {
  prompts: string[];
  sums: Float64Array;
  /** Counted videos. */
  counts: Float64Array;
  excluded: Float64Array;
  videos: Float64Array;
}

/** A dimension's score from the tally of one generator's prompts, NaN when it has none. */
type CellScore = (d: number, tally: ScoreTally) => number;

/** How the dimension scores become category values and a total, the same for estimates and replicates. */
interface Aggregation {
  /** Per category, the indices of its dimensions. */
  categories: number[][] | null;
  missingCountsZero: boolean;
}

/** Mean of the given dimension scores, a missing one (NaN) as 0 or left out; NaN when nothing counts. */
function meanOfScores(scores: Float64Array, indices: readonly number[], missingCountsZero: boolean): number {
  let sum = 0;
  let count = 0;
  for (const d of indices) {
    const s = scores[d]!;
    if (Number.isNaN(s)) {
      if (!missingCountsZero) continue;
    } else sum += s;
    count++;
  }
  return count === 0 ? NaN : sum / count;
}

/** Category values into `categoryOut` (when there are categories) and the total, from dimension scores (NaN: missing). */
function aggregate(
  scores: Float64Array,
  aggregation: Aggregation,
  allDimensions: readonly number[],
  categoryOut: Float64Array,
): number {
  if (!aggregation.categories) return meanOfScores(scores, allDimensions, aggregation.missingCountsZero);
  let sum = 0;
  let count = 0;
  aggregation.categories.forEach((indices, c) => {
    const value = meanOfScores(scores, indices, aggregation.missingCountsZero);
    categoryOut[c] = value;
    if (Number.isNaN(value)) return;
    sum += value;
    count++;
  });
  return count === 0 ? NaN : sum / count;
}

const orNull = (x: number) => (Number.isNaN(x) ? null : x);

/** The percentile interval of the replicates that are defined (NaN: undefined), nulls when none is. */
function interval(replicates: Float64Array, confidence: number): { lower: number | null; upper: number | null } {
  const found = percentileInterval(replicates, confidence);
  return found ? { lower: found.lower, upper: found.upper } : { lower: null, upper: null };
}

function checkInput(input: LeaderboardInput): { samples: number; confidence: number; seed: number } {
  if (input.dimensions.length === 0) throw new StatsInputError("name at least one dimension");
  if (new Set(input.dimensions).size !== input.dimensions.length)
    throw new StatsInputError("a dimension is named twice");
  const known = new Set(input.dimensions);
  for (const [category, dimensions] of Object.entries(input.categories ?? {})) {
    if (dimensions.length === 0) throw new StatsInputError(`category "${category}" has no dimensions`);
    for (const d of dimensions)
      if (!known.has(d))
        throw new StatsInputError(`category "${category}" names "${d}", which is not one of the dimensions`);
  }
  input.rows.forEach((row, i) => {
    if (!known.has(row.dimension))
      throw new StatsInputError(`row ${i + 1} (${row.generator}): "${row.dimension}" is not one of the dimensions`);
    if (row.value !== null && !Number.isFinite(row.value))
      throw new StatsInputError(
        `row ${i + 1} (${row.generator}, ${row.dimension}): the value ${row.value} is not a finite number`,
      );
  });
  const { seed, samples } = input.bootstrap;
  if (!Number.isInteger(seed)) throw new StatsInputError("the seed must be an integer");
  const { iterations, confidence } = checkedBootstrapOptions({
    iterations: samples ?? 1000,
    confidence: input.bootstrap.confidence,
  });
  return { samples: iterations, confidence, seed };
}

/** Per generator and dimension, the videos summed per prompt. */
function promptSums(
  rows: readonly LeaderboardRow[],
  dimensions: readonly string[],
): Map<string, (PromptSums | null)[]> {
  const dimensionIndex = new Map(dimensions.map((d, i) => [d, i]));
  const grouped = new Map<string, Map<string, { sum: number; count: number; excluded: number; videos: number }>[]>();
  for (const row of rows) {
    let perDimension = grouped.get(row.generator);
    if (!perDimension) grouped.set(row.generator, (perDimension = dimensions.map(() => new Map())));
    const byPrompt = perDimension[dimensionIndex.get(row.dimension)!]!;
    const cell = byPrompt.get(row.promptKey) ?? { sum: 0, count: 0, excluded: 0, videos: 0 };
    cell.videos++;
    if (row.excluded) cell.excluded++;
    else if (row.value !== null) {
      cell.sum += row.value;
      cell.count++;
    }
    byPrompt.set(row.promptKey, cell);
  }
  const out = new Map<string, (PromptSums | null)[]>();
  for (const [generator, perDimension] of grouped) {
    out.set(
      generator,
      perDimension.map((byPrompt) => {
        if (byPrompt.size === 0) return null;
        const prompts = [...byPrompt.keys()].sort();
        return {
          prompts,
          sums: Float64Array.from(prompts, (p) => byPrompt.get(p)!.sum),
          counts: Float64Array.from(prompts, (p) => byPrompt.get(p)!.count),
          excluded: Float64Array.from(prompts, (p) => byPrompt.get(p)!.excluded),
          videos: Float64Array.from(prompts, (p) => byPrompt.get(p)!.videos),
        };
      }),
    );
  }
  return out;
}

/** The tally over the prompts drawn (or all of them without a draw), into `out`. */
function tallyOverPrompts(cells: PromptSums, out: ScoreTally, draw?: Int32Array): ScoreTally {
  out.sum = out.counted = out.excluded = out.videos = 0;
  const k = draw ? draw.length : cells.prompts.length;
  for (let i = 0; i < k; i++) {
    const p = draw ? draw[i]! : i;
    out.sum += cells.sums[p]!;
    out.counted += cells.counts[p]!;
    out.excluded += cells.excluded[p]!;
    out.videos += cells.videos[p]!;
  }
  return out;
}

const emptyTally = (): ScoreTally => ({ sum: 0, counted: 0, excluded: 0, videos: 0 });

/** The dimension scores by index, from the input's rule (NaN for null). */
function cellScoreOf(dimensions: readonly string[], rule: ScoreRule | undefined): CellScore {
  if (!rule) return (_d, tally) => (tally.counted === 0 ? NaN : tally.sum / tally.counted);
  return (d, tally) => rule(dimensions[d]!, tally) ?? NaN;
}

/** The prompts two generators both have in a dimension, as two aligned PromptSums; null when none. */
function sharedPrompts(x: PromptSums | null, y: PromptSums | null): [PromptSums, PromptSums] | null {
  if (!x || !y) return null;
  const inY = new Map(y.prompts.map((p, i) => [p, i]));
  const pairs: [number, number][] = [];
  x.prompts.forEach((p, i) => {
    const j = inY.get(p);
    if (j !== undefined) pairs.push([i, j]);
  });
  if (pairs.length === 0) return null;
  const pick = (cells: PromptSums, side: 0 | 1): PromptSums => ({
    prompts: pairs.map((pair) => cells.prompts[pair[side]]!),
    sums: Float64Array.from(pairs, (pair) => cells.sums[pair[side]]!),
    counts: Float64Array.from(pairs, (pair) => cells.counts[pair[side]]!),
    excluded: Float64Array.from(pairs, (pair) => cells.excluded[pair[side]]!),
    videos: Float64Array.from(pairs, (pair) => cells.videos[pair[side]]!),
  });
  return [pick(x, 0), pick(y, 1)];
}

/** One generator's estimates and replicates (NaN: undefined), and the draw group of each dimension (-1: no video there). */
interface GeneratorState {
  model: string;
  cells: (PromptSums | null)[];
  groups: Int32Array;
  scores: Float64Array;
  categoryValues: Float64Array;
  total: number;
  dimensionReplicates: Float64Array[];
  categoryReplicates: Float64Array[];
  totalReplicates: Float64Array;
}

/** A generator's entry on the board (rank still 0): its dimensions, categories and total with their intervals. */
function generatorEntry(
  state: GeneratorState,
  dimensions: readonly string[],
  categoryNames: readonly string[],
  confidence: number,
): LeaderboardGenerator {
  const estimate = (value: number, replicates: Float64Array): LeaderboardEstimate =>
    Number.isNaN(value) ? { value: null, lower: null, upper: null } : { value, ...interval(replicates, confidence) };
  return {
    model: state.model,
    rank: 0,
    dimensions: Object.fromEntries(
      dimensions.map((dimension, d) => {
        const cells = state.cells[d];
        if (!cells) return [dimension, { score: null, lower: null, upper: null, n: 0, excluded: 0, prompts: 0 }];
        const { counted, excluded } = tallyOverPrompts(cells, emptyTally());
        return [
          dimension,
          {
            score: orNull(state.scores[d]!),
            ...interval(state.dimensionReplicates[d]!, confidence),
            n: counted,
            excluded,
            prompts: cells.prompts.length,
          },
        ];
      }),
    ),
    categories: Object.fromEntries(
      categoryNames.map((category, k) => [category, estimate(state.categoryValues[k]!, state.categoryReplicates[k]!)]),
    ),
    total: estimate(state.total, state.totalReplicates),
  };
}

/** Sorts the generators best first (equal totals by name, no total last) and gives equal totals the same rank. */
function rankGenerators(generators: LeaderboardGenerator[], higherIsBetter: boolean): void {
  const better = (x: LeaderboardGenerator, y: LeaderboardGenerator): number => {
    const tx = x.total.value;
    const ty = y.total.value;
    if (tx !== ty) {
      if (tx === null) return 1;
      if (ty === null) return -1;
      return higherIsBetter ? ty - tx : tx - ty;
    }
    return x.model < y.model ? -1 : x.model > y.model ? 1 : 0;
  };
  generators.sort(better);
  generators.forEach((g, i) => {
    const previous = generators[i - 1];
    g.rank = previous && previous.total.value === g.total.value ? previous.rank : i + 1;
  });
}

/**
 * The leaderboard: every generator's dimension scores, category values and total with percentile-bootstrap
 * intervals, every pair's paired difference, and the ranking. Throws StatsInputError on input it cannot use
 * (an undeclared dimension, a non-finite value, a category naming an unknown dimension).
 *
 * Generators with the same prompts in a dimension (the usual case: every generator answers the benchmark's
 * prompts) share that dimension's draws, one stream per (dimension, prompt set) from the seed: each generator's
 * intervals still depend only on its own data and the seed, and a pair with the same prompts everywhere is then
 * paired by construction, its replicates the difference of the two generators' own.
 */
export function buildLeaderboard(input: LeaderboardInput): LeaderboardResult {
  const { samples, confidence, seed } = checkInput(input);
  const dimensions = [...input.dimensions];
  const missingCountsZero = input.missingCountsZero ?? false;
  const higherIsBetter = input.higherIsBetter ?? true;
  const categoryNames = input.categories ? Object.keys(input.categories) : [];
  const dimensionIndex = new Map(dimensions.map((d, i) => [d, i]));
  const aggregation: Aggregation = {
    categories: input.categories
      ? categoryNames.map((c) => input.categories![c]!.map((d) => dimensionIndex.get(d)!))
      : null,
    missingCountsZero,
  };
  const allDimensions = dimensions.map((_, i) => i);
  const sums = promptSums(input.rows, dimensions);
  const scoreOf = cellScoreOf(dimensions, input.scoreRule);
  const tally = emptyTally();

  // The draw groups: one per (dimension, prompt set), each with its own stream and buffer.
  const groupIndex = new Map<string, number>();
  const groups: { draw: (sample: Int32Array, n: number) => void; buffer: Int32Array }[] = [];
  const states: GeneratorState[] = [...sums.keys()].sort().map((model) => {
    const cells = sums.get(model)!;
    const memberOf = Int32Array.from(cells, (c, d) => {
      if (!c) return -1;
      const key = `${d}\u0000${c.prompts.join("\u0000")}`;
      let group = groupIndex.get(key);
      if (group === undefined) {
        group = groups.length;
        groupIndex.set(key, group);
        groups.push({
          draw: resampler(streamSeed(seed, `dimension\u0000${key}`)),
          buffer: new Int32Array(c.prompts.length),
        });
      }
      return group;
    });
    const scores = Float64Array.from(cells, (c, d) => (c ? scoreOf(d, tallyOverPrompts(c, tally)) : NaN));
    const categoryValues = new Float64Array(categoryNames.length);
    const total = aggregate(scores, aggregation, allDimensions, categoryValues);
    return {
      model,
      cells,
      groups: memberOf,
      scores,
      categoryValues,
      total,
      dimensionReplicates: cells.map(() => new Float64Array(samples)),
      categoryReplicates: categoryNames.map(() => new Float64Array(samples)),
      totalReplicates: new Float64Array(samples),
    };
  });

  // Replicates: every group's prompts redrawn, then each generator's scores, categories and total on those draws.
  const replicateScores = new Float64Array(dimensions.length);
  const replicateCategories = new Float64Array(categoryNames.length);
  for (let b = 0; b < samples; b++) {
    for (const group of groups) group.draw(group.buffer, group.buffer.length);
    for (const state of states) {
      for (let d = 0; d < dimensions.length; d++) {
        const cells = state.cells[d];
        replicateScores[d] = state.dimensionReplicates[d]![b] = cells
          ? scoreOf(d, tallyOverPrompts(cells, tally, groups[state.groups[d]!]!.buffer))
          : NaN;
      }
      state.totalReplicates[b] = aggregate(replicateScores, aggregation, allDimensions, replicateCategories);
      for (let k = 0; k < categoryNames.length; k++) state.categoryReplicates[k]![b] = replicateCategories[k]!;
    }
  }

  const generators = states.map((state) => generatorEntry(state, dimensions, categoryNames, confidence));
  rankGenerators(generators, higherIsBetter);

  const stateOf = new Map(states.map((state) => [state.model, state]));
  const pairs: LeaderboardPair[] = [];
  for (let i = 0; i < generators.length; i++) {
    for (let j = i + 1; j < generators.length; j++) {
      const a = stateOf.get(generators[i]!.model)!;
      const b = stateOf.get(generators[j]!.model)!;
      pairs.push(
        a.groups.every((group, d) => group === b.groups[d])
          ? pairOnSharedDraws(a, b, confidence)
          : pairedDifference(a.model, b.model, sums, {
              aggregation,
              allDimensions,
              samples,
              confidence,
              seed,
              scoreOf,
            }),
      );
    }
  }

  return {
    dimensions,
    categories: input.categories ? Object.fromEntries(categoryNames.map((c) => [c, [...input.categories![c]!]])) : null,
    missingCountsZero,
    higherIsBetter,
    bootstrap: { samples, seed, confidence },
    generators,
    pairs,
    ranking: generators.map((g) => g.model),
  };
}

/** Two generators with the same prompts in every dimension: their replicates were drawn together, so the paired replicates are their differences. */
function pairOnSharedDraws(a: GeneratorState, b: GeneratorState, confidence: number): LeaderboardPair {
  const n = a.cells.reduce((total, c) => total + (c ? c.prompts.length : 0), 0);
  const difference = a.total - b.total;
  if (n === 0 || Number.isNaN(difference))
    return { a: a.model, b: b.model, n, difference: null, lower: null, upper: null, p: null };
  const differences = a.totalReplicates.map((x, r) => x - b.totalReplicates[r]!);
  return {
    a: a.model,
    b: b.model,
    n,
    difference,
    ...interval(differences, confidence),
    p: pairedBootstrapP(differences),
  };
}

/**
 * Two generators with different prompts somewhere: a's total minus b's over the prompts both have (per
 * dimension), with a paired bootstrap of its own: each replicate draws
 * the shared prompts of every dimension with replacement and recomputes both totals on the same draw, so what a
 * prompt does to both (a hard prompt is hard for both) cancels out of the difference. The dimensions the two
 * share no prompt in are missing for both, counted as the totals count them. p is the paired-bootstrap p-value of
 * lib/stats/bootstrap.ts.
 */
function pairedDifference(
  a: string,
  b: string,
  sums: Map<string, (PromptSums | null)[]>,
  options: {
    aggregation: Aggregation;
    allDimensions: readonly number[];
    samples: number;
    confidence: number;
    seed: number;
    scoreOf: CellScore;
  },
): LeaderboardPair {
  const { aggregation, allDimensions, samples, confidence, seed, scoreOf } = options;
  const tallyA = emptyTally();
  const tallyB = emptyTally();
  const cellsA = sums.get(a)!;
  const cellsB = sums.get(b)!;
  const shared = cellsA.map((c, d) => sharedPrompts(c, cellsB[d]!));
  const n = shared.reduce((total, s) => total + (s ? s[0].prompts.length : 0), 0);
  if (n === 0) return { a, b, n, difference: null, lower: null, upper: null, p: null };
  const categories = new Float64Array(aggregation.categories?.length ?? 0);
  const scoresA = new Float64Array(shared.length);
  const scoresB = new Float64Array(shared.length);
  const buffers = shared.map((s) => (s ? new Int32Array(s[0].prompts.length) : null));
  const draw = resampler(streamSeed(seed, `pair\u0000${a}\u0000${b}`));
  // a's total minus b's on the shared prompts, all of them (resample false) or a fresh draw of each dimension's,
  // both sides tallied on the same draw.
  const difference = (resample: boolean): number => {
    for (let d = 0; d < shared.length; d++) {
      const pair = shared[d];
      if (!pair) {
        scoresA[d] = scoresB[d] = NaN;
        continue;
      }
      const buffer = buffers[d]!;
      if (resample) draw(buffer, buffer.length);
      else for (let i = 0; i < buffer.length; i++) buffer[i] = i;
      scoresA[d] = scoreOf(d, tallyOverPrompts(pair[0], tallyA, buffer));
      scoresB[d] = scoreOf(d, tallyOverPrompts(pair[1], tallyB, buffer));
    }
    return (
      aggregate(scoresA, aggregation, allDimensions, categories) -
      aggregate(scoresB, aggregation, allDimensions, categories)
    );
  };
  const estimate = difference(false);
  if (Number.isNaN(estimate)) return { a, b, n, difference: null, lower: null, upper: null, p: null };

  const replicates = new Float64Array(samples);
  for (let r = 0; r < samples; r++) replicates[r] = difference(true);
  return { a, b, n, difference: estimate, ...interval(replicates, confidence), p: pairedBootstrapP(replicates) };
}
