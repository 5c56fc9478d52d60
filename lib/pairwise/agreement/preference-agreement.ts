import { ValidationError } from "../../errors";
import type { Vote } from "../verdicts";
import type { AgreementFigure, PreferenceAgreement } from "./agreement.types";
import { groupByPrompt, intervalsOfSums, type BootstrapOverPrompts } from "./prompt-bootstrap";
import {
  confusionOf,
  statisticsOfConfusion,
  verdictCode,
  type CodedPair,
  type VerdictStatistics,
} from "./verdict-statistics";

/** One comparison of two verdicts on one pair and aspect, with the prompt the bootstrap resamples by. */
export interface Comparison extends CodedPair {
  prompt: string;
}

/** The key a verdict is paired by: the pair and the aspect (`\u0000` cannot occur in either id). */
export function unitKey(vote: Pick<Vote, "pairId" | "aspect">): string {
  return `${vote.pairId}\u0000${vote.aspect}`;
}

/** One side's verdicts by (pair, aspect); a second verdict of one side on the same pair and aspect is refused. */
function byUnit(votes: readonly Vote[], side: string): Map<string, Vote> {
  const units = new Map<string, Vote>();
  for (const vote of votes) {
    const key = unitKey(vote);
    if (units.has(key)) {
      throw new ValidationError(
        `${side} has two verdicts on pair ${JSON.stringify(vote.pairId)}, aspect ${JSON.stringify(vote.aspect)}`,
      );
    }
    units.set(key, vote);
  }
  return units;
}

/** The pairs and aspects both sides gave a verdict on, as comparisons (in the order of `a`). */
export function pairVerdicts(a: readonly Vote[], b: readonly Vote[]): Comparison[] {
  byUnit(a, "the first side");
  const other = byUnit(b, "the second side");
  const comparisons: Comparison[] = [];
  for (const vote of a) {
    const match = other.get(unitKey(vote));
    if (match) comparisons.push({ prompt: vote.prompt, a: verdictCode(vote.verdict), b: verdictCode(match.verdict) });
  }
  return comparisons;
}

function figure(value: number | null, n: number, interval: { lower: number | null; upper: number | null }) {
  const result: AgreementFigure = { value, lower: interval.lower, upper: interval.upper, n };
  return result;
}

function statisticList(s: VerdictStatistics): (number | null)[] {
  return [s.accuracy4, s.accuracy3, s.accuracy2, s.cohenKappa, s.krippendorffAlpha];
}

/**
 * The five figures over comparisons (one per pair and aspect for two raters, or pooled over many pairs of raters),
 * each with its 95% interval over prompts.
 */
export function agreementOfComparisons(
  comparisons: readonly Comparison[],
  options: BootstrapOverPrompts,
): PreferenceAgreement {
  const point = statisticsOfConfusion(confusionOf(comparisons));
  const perPrompt = groupByPrompt(comparisons).map(confusionOf);
  const intervals = intervalsOfSums(perPrompt, 5, (sum) => statisticList(statisticsOfConfusion(sum)), options);
  return {
    accuracy4: figure(point.accuracy4, point.n, intervals[0]!),
    accuracy3: figure(point.accuracy3, point.n, intervals[1]!),
    accuracy2: figure(point.accuracy2, point.n2, intervals[2]!),
    cohenKappa: figure(point.cohenKappa, point.n, intervals[3]!),
    krippendorffAlpha: figure(point.krippendorffAlpha, point.n, intervals[4]!),
  };
}

/**
 * Agreement of two raters' verdicts (each side one verdict per pair and aspect), paired by (pair, aspect): the
 * GenAI-Bench accuracies, Cohen's κ and Krippendorff's α, each with a seeded 95% bootstrap interval over prompts.
 */
export function preferenceAgreement(
  a: readonly Vote[],
  b: readonly Vote[],
  options: BootstrapOverPrompts = {},
): PreferenceAgreement {
  return agreementOfComparisons(pairVerdicts(a, b), options);
}
