/**
 * The caption leaderboard: per model × caption type, and per model over all its captions,
 * - the mean style score (0–4) of the captions that have one,
 * - content coverage, Σ key points hit / Σ key points, over the captions that have a key-point check,
 * - the rate of length-rule violations among the captions the rules were checked on,
 * each with its n (captions) and a seeded percentile-bootstrap 95% interval that resamples captions
 * (coverage is a ratio of sums, so a caption with many key points weighs more, in the estimate and in every
 * resample alike). A metric with no captions is null, never 0.
 */
import { bootstrapConfidenceInterval, type BootstrapOptions } from "../../stats/bootstrap";
import { StatsInputError } from "../../stats/input-error";

export interface CaptionResult {
  model: string;
  captionType: string;
  /** The style score that counts (the run setting decides raw or after the rules); null when not judged. */
  styleScore: number | null;
  keyPointsHit: number | null;
  keyPointsTotal: number | null;
  /** Whether a length rule failed; null when the rules were not checked. */
  lengthViolation: boolean | null;
}

export interface LeaderboardMetric {
  value: number;
  ci: { lower: number; upper: number } | null;
  n: number;
}

export interface LeaderboardRow {
  model: string;
  /** Null on a model's overall row. */
  captionType: string | null;
  styleScore: LeaderboardMetric | null;
  contentCoverage: LeaderboardMetric | null;
  lengthViolationRate: LeaderboardMetric | null;
}

function check(result: CaptionResult, index: number): void {
  const where = `caption result ${index + 1} (${result.model}, ${result.captionType})`;
  if (
    result.styleScore !== null &&
    !(Number.isFinite(result.styleScore) && result.styleScore >= 0 && result.styleScore <= 4)
  ) {
    throw new StatsInputError(`${where}: styleScore ${result.styleScore} is not on the 0–4 scale`);
  }
  if ((result.keyPointsHit === null) !== (result.keyPointsTotal === null))
    throw new StatsInputError(`${where}: keyPointsHit and keyPointsTotal must both be given or both be null`);
  if (result.keyPointsHit !== null && result.keyPointsTotal !== null) {
    const { keyPointsHit: hit, keyPointsTotal: total } = result;
    if (!Number.isInteger(hit) || !Number.isInteger(total) || hit < 0 || total < 0 || hit > total) {
      throw new StatsInputError(`${where}: ${hit} of ${total} key points is not a count between 0 and the total`);
    }
  }
}

function mean(values: readonly number[], options: BootstrapOptions): LeaderboardMetric | null {
  if (values.length === 0) return null;
  const sum = (items: ArrayLike<number>, pick: (i: number) => number) => {
    let total = 0;
    for (let i = 0; i < items.length; i++) total += pick(i);
    return total;
  };
  const value = sum(values, (i) => values[i]!) / values.length;
  const ci = bootstrapConfidenceInterval(
    values.length,
    (sample) => sum(sample, (i) => values[sample[i]!]!) / sample.length,
    options,
  );
  return { value, ci: ci && { lower: ci.lower, upper: ci.upper }, n: values.length };
}

function coverage(
  hits: readonly number[],
  totals: readonly number[],
  options: BootstrapOptions,
): LeaderboardMetric | null {
  if (hits.length === 0) return null;
  const ratio = (indexes: ArrayLike<number>) => {
    let hit = 0;
    let total = 0;
    for (let i = 0; i < indexes.length; i++) {
      hit += hits[indexes[i]!]!;
      total += totals[indexes[i]!]!;
    }
    return total === 0 ? null : hit / total;
  };
  const value = ratio(Array.from(hits.keys()));
  if (value === null) return null;
  const ci = bootstrapConfidenceInterval(hits.length, ratio, options);
  return { value, ci: ci && { lower: ci.lower, upper: ci.upper }, n: hits.length };
}

function row(
  model: string,
  captionType: string | null,
  results: readonly CaptionResult[],
  options: BootstrapOptions,
): LeaderboardRow {
  const styled = results.filter((r) => r.styleScore !== null).map((r) => r.styleScore!);
  // A caption with no key points has nothing to cover; it is not part of the coverage n.
  const checked = results.filter((r) => r.keyPointsTotal !== null && r.keyPointsTotal > 0);
  const ruled = results.filter((r) => r.lengthViolation !== null).map((r) => (r.lengthViolation ? 1 : 0));
  return {
    model,
    captionType,
    styleScore: mean(styled, options),
    contentCoverage: coverage(
      checked.map((r) => r.keyPointsHit!),
      checked.map((r) => r.keyPointsTotal!),
      options,
    ),
    lengthViolationRate: mean(ruled, options),
  };
}

/**
 * Rows sorted by model, each model's caption types sorted, then its overall row. Deterministic: every row's
 * interval uses the same seed (default 1) and 1000 resamples unless told otherwise.
 */
export function captionLeaderboard(
  results: readonly CaptionResult[],
  options: BootstrapOptions = {},
): LeaderboardRow[] {
  results.forEach(check);
  const bootstrap = { iterations: 1000, seed: 1, confidence: 0.95, ...options };
  const byModel = new Map<string, Map<string, CaptionResult[]>>();
  for (const result of results) {
    const byType = byModel.get(result.model) ?? new Map<string, CaptionResult[]>();
    byModel.set(result.model, byType);
    const group = byType.get(result.captionType) ?? [];
    byType.set(result.captionType, group);
    group.push(result);
  }
  const rows: LeaderboardRow[] = [];
  for (const model of [...byModel.keys()].sort()) {
    const byType = byModel.get(model)!;
    const types = [...byType.keys()].sort();
    for (const type of types) rows.push(row(model, type, byType.get(type)!, bootstrap));
    rows.push(
      row(
        model,
        null,
        types.flatMap((type) => byType.get(type)!),
        bootstrap,
      ),
    );
  }
  return rows;
}
