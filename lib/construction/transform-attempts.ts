/**
 * Seed 004's multiple-choice transformation (Appendix D, Tables 29–32), one attempt at a time:
 * 1. six wrong answers mirroring the correct one (Table 29);
 * 2. the four best of them (Table 30), checked for duplicates: the attempt starts anew if any;
 * 3. without the video (Table 31): if the correct answer can be picked from the question and options
 *    alone, the distractors are too weak;
 * 4. with the video's annotations (Table 32): if the correct answer is still not picked, a wrong option
 *    may be right.
 * The seed asks three assistants and redesigns when more than half fail a check; FrameJury asks the run's
 * checking endpoint once per check, so "more than half" is that one answer. A question that no attempt
 * transforms within MAX_TRANSFORM_ATTEMPTS is marked "could not transform", as the seed discards it.
 */
import { extractOptionLetter } from "../qa/extract-letter";

/** "If GPT-4 cannot successfully transform an open-ended Q&A within 10 attempts, we discard that particular Q&A." */
export const MAX_TRANSFORM_ATTEMPTS = 10;
export const WRONG_ANSWERS_GENERATED = 6;
export const WRONG_ANSWERS_KEPT = 4;

export interface TransformAttempt {
  /** Table 29's answer, or null when the step failed. */
  six: readonly string[] | null;
  /** Table 30's answer. */
  four: readonly string[] | null;
  /** The options shown in the checks (the correct answer among the four), letter → text. */
  options: Readonly<Record<string, string>> | null;
  correctLetter: string | null;
  /** Table 31's and Table 32's "Best_option". */
  withoutVideo: string | null;
  withVideo: string | null;
}

export type AttemptVerdict = { ok: true } | { ok: false; stage: "six" | "four" | "without_video" | "with_video"; reason: string };

const normal = (text: string) => text.trim().toLowerCase().replace(/[\s.]+$/g, "").replace(/\s+/g, " ");

/** Why the four chosen wrong answers cannot be used (duplicates, the correct answer among them, not from the six), or null. */
export function fourProblem(correct: string, six: readonly string[], four: readonly string[]): string | null {
  const chosen = four.map(normal);
  if (new Set(chosen).size !== chosen.length) return "two of the four wrong answers are the same";
  if (chosen.includes(normal(correct))) return "a wrong answer repeats the correct answer";
  const offered = new Set(six.map(normal));
  const foreign = four.filter((answer) => !offered.has(normal(answer)));
  if (foreign.length) return `picked ${foreign.length === 1 ? "an answer" : `${foreign.length} answers`} not among the six: ${foreign.map((f) => JSON.stringify(f)).join(", ")}`;
  return null;
}

export function attemptVerdict(attempt: TransformAttempt, correct: string): AttemptVerdict {
  if (!attempt.six) return { ok: false, stage: "six", reason: "no six wrong answers" };
  if (!attempt.four) return { ok: false, stage: "four", reason: "no four wrong answers" };
  const problem = fourProblem(correct, attempt.six, attempt.four);
  if (problem) return { ok: false, stage: "four", reason: problem };
  if (!attempt.options || !attempt.correctLetter) return { ok: false, stage: "four", reason: "no options to check" };
  if (attempt.withoutVideo === null) return { ok: false, stage: "without_video", reason: "no answer without the video" };
  const without = extractOptionLetter(attempt.withoutVideo, attempt.options);
  if (without.letter === attempt.correctLetter) return { ok: false, stage: "without_video", reason: `picked the correct option ${without.letter} without the video: the wrong options are too easy to rule out` };
  if (attempt.withVideo === null) return { ok: false, stage: "with_video", reason: "no answer with the video" };
  const withVideo = extractOptionLetter(attempt.withVideo, attempt.options);
  if (withVideo.letter === null) return { ok: false, stage: "with_video", reason: `no single option in the answer with the video (${withVideo.reason})` };
  if (withVideo.letter !== attempt.correctLetter) return { ok: false, stage: "with_video", reason: `picked ${withVideo.letter} instead of ${attempt.correctLetter} with the video: a wrong option may be right` };
  return { ok: true };
}

export type TransformOutcome =
  | { state: "transformed"; attempt: number; wrong: readonly string[] }
  | { state: "could_not_transform"; attempts: number; lastReason: string }
  /** Attempts left and the last one failed (or none yet): the next attempt is due. */
  | { state: "in_progress"; nextAttempt: number };

/** The outcome of the attempts made so far (in order): the first that passes wins; ten failures end it. */
export function transformOutcome(attempts: readonly TransformAttempt[], correct: string): TransformOutcome {
  let lastReason = "";
  for (const [i, attempt] of attempts.entries()) {
    const verdict = attemptVerdict(attempt, correct);
    if (verdict.ok) return { state: "transformed", attempt: i + 1, wrong: attempt.four! };
    lastReason = verdict.reason;
    if (i + 1 >= MAX_TRANSFORM_ATTEMPTS) return { state: "could_not_transform", attempts: i + 1, lastReason };
  }
  return { state: "in_progress", nextAttempt: attempts.length + 1 };
}
