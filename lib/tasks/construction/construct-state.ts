/**
 * What a qa_construct run decided about one candidate, read from its stored step outputs alone: the
 * category, each filter's decision, the transformation's attempts and outcome. The pipeline's steps settle
 * by it while the run goes on, its summary is made by it, and the candidate views read it back from the
 * database, so the three never disagree and nothing is kept anywhere else.
 */
import { mulberry32 } from "../../stats/bootstrap";
import { MC_LETTERS } from "./mc-letters";
import type { Judgement } from "./construction-outputs";
import {
  candidateFate,
  FILTER_IDS,
  FILTERS,
  type CandidateFate,
  type FilterDecision,
  type FilterId,
} from "./filter-funnel";
import {
  attemptVerdict,
  MAX_TRANSFORM_ATTEMPTS,
  transformOutcome,
  type TransformAttempt,
  type TransformOutcome,
} from "./transform-attempts";

/**
 * The correct answer's place among the options in the checks of runs made before the checks shuffled their
 * options (the seed's worked example has it last): a stored check output without a layout is read this way.
 */
export const CHECK_CORRECT_LETTER = "E";

/** Seed 004's Appendix D asks three assistants per check: a run asks one to three checking endpoints. */
export const MAX_CHECKERS = 3;

/**
 * How many checking endpoints a qa_construct run's settings name (1 unless `checkerEndpointIds` lists more).
 * Read without zod so that views reading stored settings take what the run was started with.
 */
export function checkerCount(settings: unknown): number {
  const ids = (settings as { checkerEndpointIds?: unknown } | null)?.checkerEndpointIds;
  return Array.isArray(ids) && ids.length > 0 ? Math.min(ids.length, MAX_CHECKERS) : 1;
}

/**
 * Step ids of one transformation attempt (1-based). The checks have one step per checker: the first keeps
 * the id it had when there was one checker (`without_video_k`), the others end in `_c2`, `_c3`.
 */
export const attemptStepIds = (k: number, checkers = 1) => ({
  six: `wrong_six_${k}`,
  four: `wrong_four_${k}`,
  withoutVideo: `without_video_${k}`,
  withVideo: `with_video_${k}`,
  withoutVideoBy: Array.from({ length: checkers }, (_, j) => `without_video_${k}${j === 0 ? "" : `_c${j + 1}`}`),
  withVideoBy: Array.from({ length: checkers }, (_, j) => `with_video_${k}${j === 0 ? "" : `_c${j + 1}`}`),
});

/** The step whose output is a filter's decision. */
export const FILTER_DECISION_STEP: Record<FilterId, string> = {
  blind: "blind_check",
  hallucination: "filter_hallucination",
  tricky: "tricky_check",
  unspecific: "filter_unspecific",
};

/** A step's output when it was settled without a call (removed by a filter, or not needed). */
export interface SkippedOutput {
  skipped: string;
}
export const isSkipped = (output: unknown): output is SkippedOutput =>
  typeof output === "object" && output !== null && typeof (output as SkippedOutput).skipped === "string";

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

/** The options of a check as runs before the shuffle showed them: the four wrong answers, then the correct answer (E). */
export function checkOptions(four: readonly string[], correct: string): Record<string, string> {
  const options: Record<string, string> = Object.fromEntries(
    four.slice(0, 4).map((wrong, i) => [MC_LETTERS[i]!, wrong]),
  );
  options[CHECK_CORRECT_LETTER] = correct;
  return options;
}

/** The options a check showed and where the correct one was: stored with every check's output. */
export interface CheckLayout {
  options: Record<string, string>;
  correctLetter: string;
}

/** FNV-1a: a small, stable string hash (no node:crypto, so browser code may import this module). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The options of an attempt's checks (Tables 31 and 32), shuffled so that a checker that favours a letter
 * does not pass or fail a check for that reason alone (the seed shuffles its final questions for the same
 * reason). The order follows from `seed` alone (the candidate's item id and the attempt), so a re-run renders
 * the same prompts and hits the cache, and every checker of the attempt sees the same order.
 */
export function shuffledCheckLayout(four: readonly string[], correct: string, seed: string): CheckLayout {
  const texts = [correct, ...four.slice(0, 4)];
  const random = mulberry32(fnv1a(seed));
  // Fisher–Yates over the positions: order[j] is the text shown at letter j.
  const order = texts.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const options = Object.fromEntries(order.map((index, j) => [MC_LETTERS[j]!, texts[index]!]));
  return { options, correctLetter: MC_LETTERS[order.indexOf(0)]! };
}

/** The seed of an attempt's shuffle: one order per candidate and attempt. */
export const checkLayoutSeed = (itemId: string, k: number) => `${itemId}\u0000transform-attempt-${k}`;

/** The layout a check output recorded, if any (outputs of runs before the shuffle have none). */
function recordedLayout(output: unknown): CheckLayout | null {
  if (!output || typeof output !== "object" || isSkipped(output)) return null;
  const { options, correctLetter } = output as Partial<CheckLayout>;
  return options && typeof options === "object" && typeof correctLetter === "string"
    ? { options, correctLetter }
    : null;
}

/**
 * The layout an attempt's checks showed, read from their stored outputs: the one a check recorded, else (a
 * run from before the shuffle) the four wrong answers and the correct answer at E.
 */
export function storedCheckLayout(outputs: readonly unknown[], four: readonly string[], correct: string): CheckLayout {
  for (const output of outputs) {
    const layout = recordedLayout(output);
    if (layout) return layout;
  }
  return { options: checkOptions(four, correct), correctLetter: CHECK_CORRECT_LETTER };
}

const bestOption = (output: unknown) =>
  output && !isSkipped(output) ? ((output as { Best_option: string }).Best_option ?? null) : null;
const answers = (output: unknown) => (Array.isArray(output) ? (output as string[]) : null);

/**
 * The attempts made so far, up to `upTo` (inclusive): an attempt counts once its six wrong answers were asked
 * for. `checkers`: how many checking endpoints the run asked (checkerCount of its settings).
 */
export function transformAttempts(
  outputOf: OutputOf,
  correct: string,
  upTo = MAX_TRANSFORM_ATTEMPTS,
  checkers = 1,
): TransformAttempt[] {
  const attempts: TransformAttempt[] = [];
  for (let k = 1; k <= upTo; k++) {
    const ids = attemptStepIds(k, checkers);
    const six = answers(outputOf(ids.six));
    if (six === null) break;
    const four = answers(outputOf(ids.four));
    const usable = four !== null && four.length === 4;
    const withoutOutputs = ids.withoutVideoBy.map(outputOf);
    const withOutputs = ids.withVideoBy.map(outputOf);
    const layout = usable ? storedCheckLayout([...withoutOutputs, ...withOutputs], four, correct) : null;
    attempts.push({
      six,
      four,
      options: layout?.options ?? null,
      correctLetter: layout?.correctLetter ?? null,
      withoutVideo: withoutOutputs.map(bestOption),
      withVideo: withOutputs.map(bestOption),
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
 * restores): a removal by one of them does not stop the candidate. `checkers`: the run's checkerCount.
 */
export function constructState(
  outputOf: OutputOf,
  correct: string,
  restored: readonly FilterId[],
  checkers = 1,
): ConstructState {
  const categorised = outputOf("categorise") as { Question_type?: string } | undefined;
  const decisions = filterDecisions(outputOf);
  const fate = fateWithRestores(decisions, restored);
  const attempts = transformAttempts(outputOf, correct, MAX_TRANSFORM_ATTEMPTS, checkers);
  return {
    category: categorised && !isSkipped(categorised) ? (categorised.Question_type ?? null) : null,
    decisions,
    fate,
    transform: fate.state === "kept" && attempts.length > 0 ? transformOutcome(attempts, correct) : null,
    attempts: attempts.length,
  };
}

/** candidateFate with any number of restored filters. */
export function fateWithRestores(
  decisions: Partial<Record<FilterId, FilterDecision>>,
  restored: readonly FilterId[],
): CandidateFate {
  return candidateFate({ category: null, dataset: "", decisions, restored });
}
