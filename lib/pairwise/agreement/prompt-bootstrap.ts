import { mulberry32, percentileInterval } from "../../stats/bootstrap";
import { ValidationError } from "../../errors";

/** How the 95% intervals over prompts are drawn: the same seed and data give the same intervals. */
export interface BootstrapOverPrompts {
  seed?: number;
  /** Resamples of the prompts; 0 leaves the intervals out (null). */
  draws?: number;
}

export const DEFAULT_DRAWS = 1000;
export const DEFAULT_SEED = 1;
const CONFIDENCE = 0.95;
const MAX_DRAWS = 100_000;

export function checkedDraws(options: BootstrapOverPrompts): { seed: number; draws: number } {
  const draws = options.draws ?? DEFAULT_DRAWS;
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(draws) || draws < 0 || draws > MAX_DRAWS) {
    throw new ValidationError(`draws must be a whole number from 0 to ${MAX_DRAWS}, not ${draws}`);
  }
  if (!Number.isInteger(seed)) throw new ValidationError(`seed must be a whole number, not ${seed}`);
  return { seed, draws };
}

/** Items grouped by their prompt, the prompts in code-unit order so the input's order does not move a draw. */
export function groupByPrompt<T extends { prompt: string }>(items: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.prompt);
    if (group) group.push(item);
    else groups.set(item.prompt, [item]);
  }
  return [...groups.keys()].sort(compareCodeUnits).map((prompt) => groups.get(prompt)!);
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The percentile intervals of several statistics over resamples of whole prompts (every verdict of a drawn prompt
 * comes along: the verdicts on one prompt's pairs are not independent). The statistics are functions of a sum over
 * prompts (a confusion or coincidence matrix per prompt), so a resample adds the drawn prompts' vectors and costs
 * prompts × the vector's length whatever the number of verdicts. A statistic undefined on a resample (null) is left
 * out of its interval; null bounds when it is undefined on every resample or draws is 0.
 */
export function intervalsOfSums(
  perPrompt: readonly Float64Array[],
  statistics: number,
  compute: (sum: Float64Array) => readonly (number | null)[],
  options: BootstrapOverPrompts,
): { lower: number | null; upper: number | null }[] {
  const { seed, draws } = checkedDraws(options);
  const replicates = Array.from({ length: statistics }, () => new Float64Array(draws));
  const random = mulberry32(seed);
  const sum = new Float64Array(perPrompt[0]?.length ?? 0);
  // A prompt's matrix has a few cells filled (its pairs' verdicts): add only those.
  const sparse = perPrompt.map((vector) => {
    const cells = [...vector.keys()].filter((c) => vector[c] !== 0);
    return { cells: Int32Array.from(cells), counts: Float64Array.from(cells, (c) => vector[c]!) };
  });
  for (let draw = 0; draw < draws && sparse.length > 0; draw++) {
    sum.fill(0);
    for (let i = 0; i < sparse.length; i++) {
      const { cells, counts } = sparse[Math.floor(random() * sparse.length)]!;
      for (let c = 0; c < cells.length; c++) sum[cells[c]!]! += counts[c]!;
    }
    const values = compute(sum);
    for (let s = 0; s < statistics; s++) replicates[s]![draw] = values[s] ?? Number.NaN;
  }
  return replicates.map((values) => {
    const interval = perPrompt.length === 0 || draws === 0 ? null : percentileInterval(values, CONFIDENCE);
    return { lower: interval?.lower ?? null, upper: interval?.upper ?? null };
  });
}
