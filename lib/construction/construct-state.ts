/**
 * What a qa_construct run decided about one candidate, read from its stored step outputs alone: the
 * category, each filter's decision, the transformation's attempts and outcome. The pipeline's steps settle
 * by it while the run goes on, its summary is made by it, and the candidate views read it back from the
 * database, so the three never disagree and nothing is kept anywhere else.
 */
import { MC_LETTERS } from "./balance-answer-letters";
import type { Judgement } from "./construction-outputs";
import { candidateFate, FILTER_IDS, FILTERS, type CandidateFate, type FilterDecision, type FilterId } from "./filter-funnel";
import { attemptVerdict, MAX_TRANSFORM_ATTEMPTS, transformOutcome, type TransformAttempt, type TransformOutcome } from "./transform-attempts";

/** The correct answer's place among the options in the checks (the seed's worked example has it last); export balances the letters. */
export const CHECK_CORRECT_LETTER = "E";

/** Step ids of one transformation attempt (1-based). */
export const attemptStepIds = (k: number) => ({ six: `wrong_six_${k}`, four: `wrong_four_${k}`, withoutVideo: `without_video_${k}`, withVideo: `with_video_${k}` });

/** The step whose output is a filter's decision. */
export const FILTER_DECISION_STEP: Record<FilterId, string> = { blind: "blind_check", hallucination: "filter_hallucination", tricky: "tricky_check", unspecific: "filter_unspecific" };

/** A step's output when it was settled without a call (removed by a filter, or not needed). */
export interface SkippedOutput {
  skipped: string;
}
export const isSkipped = (output: unknown): output is SkippedOutput => typeof output === "object" && output !== null && typeof (output as SkippedOutput).skipped === "string";

/** A finished step's stored output by step id (undefined: the step has not finished well). */
export type OutputOf = (stepId: string) => unknown;

export function filterDecision(filter: FilterId, output: unknown): FilterDecision | undefined {
  if (output === undefined || output === null || isSkipped(output)) return undefined;
  const { Judgement: judgement, Reason: reason } = output as Judgement;
  // Blind: consistent with the reference without the video. Tricky: not consistent even with the annotations.
  const removed = filter === "tricky" ? judgement === "No" : judgement === "Yes";
  const label = FILTERS.find((f) => f.id === filter)!;
  return { removed, reason: removed ? `${label.removes}: ${reason}` : reason };
}

export function filterDecisions(outputOf: OutputOf): Partial<Record<FilterId, FilterDecision>> {
  const decisions: Partial<Record<FilterId, FilterDecision>> = {};
  for (const filter of FILTER_IDS) {
    const decision = filterDecision(filter, outputOf(FILTER_DECISION_STEP[filter]));
    if (decision) decisions[filter] = decision;
  }
  return decisions;
}

/** The four options of a check: the four wrong answers, then the correct answer. */
export function checkOptions(four: readonly string[], correct: string): Record<string, string> {
  const options: Record<string, string> = Object.fromEntries(four.slice(0, 4).map((wrong, i) => [MC_LETTERS[i]!, wrong]));
  options[CHECK_CORRECT_LETTER] = correct;
  return options;
}

const bestOption = (output: unknown) => (output && !isSkipped(output) ? ((output as { Best_option: string }).Best_option ?? null) : null);
const answers = (output: unknown) => (Array.isArray(output) ? (output as string[]) : null);

/** The attempts made so far, up to `upTo` (inclusive): an attempt counts once its six wrong answers were asked for. */
export function transformAttempts(outputOf: OutputOf, correct: string, upTo = MAX_TRANSFORM_ATTEMPTS): TransformAttempt[] {
  const attempts: TransformAttempt[] = [];
  for (let k = 1; k <= upTo; k++) {
    const ids = attemptStepIds(k);
    const six = answers(outputOf(ids.six));
    if (six === null) break;
    const four = answers(outputOf(ids.four));
    const usable = four !== null && four.length === 4;
    attempts.push({
      six,
      four,
      options: usable ? checkOptions(four, correct) : null,
      correctLetter: usable ? CHECK_CORRECT_LETTER : null,
      withoutVideo: bestOption(outputOf(ids.withoutVideo)),
      withVideo: bestOption(outputOf(ids.withVideo)),
    });
    if (attemptVerdict(attempts.at(-1)!, correct).ok) break;
  }
  return attempts;
}

export interface ConstructState {
  category: string | null;
  decisions: Partial<Record<FilterId, FilterDecision>>;
  fate: CandidateFate;
  transform: TransformOutcome | null;
  attempts: number;
}

/**
 * The candidate's state. `restored` are the filters a curator undid (the run's snapshot, or the current
 * restores): a removal by one of them does not stop the candidate.
 */
export function constructState(outputOf: OutputOf, correct: string, restored: readonly FilterId[]): ConstructState {
  const categorised = outputOf("categorise") as { Question_type?: string } | undefined;
  const decisions = filterDecisions(outputOf);
  const fate = fateWithRestores(decisions, restored);
  const attempts = transformAttempts(outputOf, correct);
  return {
    category: categorised && !isSkipped(categorised) ? (categorised.Question_type ?? null) : null,
    decisions,
    fate,
    transform: fate.state === "kept" && attempts.length > 0 ? transformOutcome(attempts, correct) : null,
    attempts: attempts.length,
  };
}

/** candidateFate with any number of restored filters. */
export function fateWithRestores(decisions: Partial<Record<FilterId, FilterDecision>>, restored: readonly FilterId[]): CandidateFate {
  return candidateFate({ category: null, dataset: "", decisions, restored });
}
