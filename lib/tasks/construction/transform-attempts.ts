/**
 * Seed 004's multiple-choice transformation (Appendix D, Tables 29–32), one attempt at a time:
 * 1. six wrong answers mirroring the correct one (Table 29);
 * 2. the four best of them (Table 30), checked for duplicates: the attempt starts anew if any;
 * 3. without the video (Table 31): if the correct answer can be picked from the question and options
 *    alone, the distractors are too weak;
 * 4. with the video's annotations (Table 32): if the correct answer is still not picked, a wrong option
 *    may be right.
 * The seed asks three assistants per check (Stage 2 with the annotations, Stage 3 without them) and redesigns
 * "if more than half" get the check wrong. A run asks one to three checking endpoints (one by default), and
 * both checks follow that majority rule over them:
 * - without the video (Table 31, the seed's Stage 3): the attempt fails when more than half of the checkers
 *   picked the correct option;
 * - with the annotations (Table 32, Stage 2: "if more than half still failed"): the attempt fails when more
 *   than half did not pick it (a wrong letter, or no single letter at all).
 * With one checker both rules come to what they were: its one answer decides. With two, one of two is not
 * "more than half" either way. The options of both checks are shuffled per candidate and attempt
 * (construct-state.ts, shuffledCheckLayout), so the correct letter is wherever the shuffle put it.
 * A question that no attempt transforms within MAX_TRANSFORM_ATTEMPTS is marked "could not transform", as
 * the seed discards it.
 */
import { extractOptionLetter } from "../qa/extract-letter";

/** "If GPT-4 cannot successfully transform an open-ended Q&A within 10 attempts, we discard that particular Q&A." */
export const MAX_TRANSFORM_ATTEMPTS = 10;
export const WRONG_ANSWERS_KEPT = 4;

export interface TransformAttempt {
  /** Table 29's answer, or null when the step failed. */
  six: readonly string[] | null;
  /** Table 30's answer. */
  four: readonly string[] | null;
  /** The options shown in the checks (the correct answer among the four), letter → text. */
  options: Readonly<Record<string, string>> | null;
  correctLetter: string | null;
  /** Table 31's and Table 32's "Best_option", one per checker in the run's order (null: no answer). */
  withoutVideo: readonly (string | null)[];
  withVideo: readonly (string | null)[];
}

export type AttemptVerdict =
  { ok: true } | { ok: false; stage: "six" | "four" | "without_video" | "with_video"; reason: string };

const normal = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s.]+$/g, "")
    .replace(/\s+/g, " ");

/** Why the four chosen wrong answers cannot be used (duplicates, the correct answer among them, not from the six), or null. */
export function fourProblem(correct: string, six: readonly string[], four: readonly string[]): string | null {
  const chosen = four.map(normal);
  if (new Set(chosen).size !== chosen.length) return "two of the four wrong answers are the same";
  if (chosen.includes(normal(correct))) return "a wrong answer repeats the correct answer";
  const offered = new Set(six.map(normal));
  const foreign = four.filter((answer) => !offered.has(normal(answer)));
  if (foreign.length)
    return `picked ${foreign.length === 1 ? "an answer" : `${foreign.length} answers`} not among the six: ${foreign.map((f) => JSON.stringify(f)).join(", ")}`;
  return null;
}

/** The checkers' picks in order, "–" for an answer with no single letter. */
const picks = (letters: readonly (string | null)[]) => letters.map((letter) => letter ?? "–").join(", ");

export function attemptVerdict(attempt: TransformAttempt, correct: string): AttemptVerdict {
  if (!attempt.six) return { ok: false, stage: "six", reason: "no six wrong answers" };
  if (!attempt.four) return { ok: false, stage: "four", reason: "no four wrong answers" };
  const problem = fourProblem(correct, attempt.six, attempt.four);
  if (problem) return { ok: false, stage: "four", reason: problem };
  if (!attempt.options || !attempt.correctLetter) return { ok: false, stage: "four", reason: "no options to check" };
  const { options, correctLetter } = attempt;
  const n = attempt.withoutVideo.length;
  const from = (j: number) => (n > 1 ? ` from checker ${j + 1}` : "");
  const missingWithout = attempt.withoutVideo.indexOf(null);
  if (n === 0 || missingWithout >= 0)
    return {
      ok: false,
      stage: "without_video",
      reason: `no answer without the video${from(Math.max(missingWithout, 0))}`,
    };
  const without = attempt.withoutVideo.map((answer) => extractOptionLetter(answer!, options).letter);
  const rightWithout = without.filter((letter) => letter === correctLetter).length;
  if (rightWithout * 2 > n) {
    const who = n === 1 ? "picked" : `${rightWithout} of ${n} checkers (${picks(without)}) picked`;
    return {
      ok: false,
      stage: "without_video",
      reason: `${who} the correct option ${correctLetter} without the video: the wrong options are too easy to rule out`,
    };
  }
  const missingWith = attempt.withVideo.indexOf(null);
  if (attempt.withVideo.length === 0 || missingWith >= 0)
    return { ok: false, stage: "with_video", reason: `no answer with the video${from(Math.max(missingWith, 0))}` };
  if (n === 1) {
    const withVideo = extractOptionLetter(attempt.withVideo[0]!, options);
    if (withVideo.letter === null)
      return {
        ok: false,
        stage: "with_video",
        reason: `no single option in the answer with the video (${withVideo.reason})`,
      };
    if (withVideo.letter !== correctLetter)
      return {
        ok: false,
        stage: "with_video",
        reason: `picked ${withVideo.letter} instead of ${correctLetter} with the video: a wrong option may be right`,
      };
    return { ok: true };
  }
  const withPicks = attempt.withVideo.map((answer) => extractOptionLetter(answer!, options).letter);
  const wrongWith = withPicks.filter((letter) => letter !== correctLetter).length;
  if (wrongWith * 2 > attempt.withVideo.length) {
    return {
      ok: false,
      stage: "with_video",
      reason: `${wrongWith} of ${attempt.withVideo.length} checkers (${picks(withPicks)}) did not pick ${correctLetter} with the video: a wrong option may be right`,
    };
  }
  return { ok: true };
}

/** Each checker's picked letter in an attempt's checks (null: no answer, or no single letter), and the correct letter. */
export interface AttemptChecks {
  correctLetter: string | null;
  withoutVideo: (string | null)[];
  withVideo: (string | null)[];
}

export function attemptChecks(attempt: TransformAttempt): AttemptChecks {
  const letters = (answers: readonly (string | null)[]) =>
    answers.map((answer) =>
      answer === null || !attempt.options ? null : extractOptionLetter(answer, attempt.options).letter,
    );
  return {
    correctLetter: attempt.correctLetter,
    withoutVideo: letters(attempt.withoutVideo),
    withVideo: letters(attempt.withVideo),
  };
}

export type TransformOutcome =
  /** `checks`: every checker's picks in the attempt that passed (or, for "could not transform", the last one). */
  | { state: "transformed"; attempt: number; wrong: readonly string[]; checks?: AttemptChecks }
  | { state: "could_not_transform"; attempts: number; lastReason: string; checks?: AttemptChecks }
  /** Attempts left and the last one failed (or none yet): the next attempt is due. */
  | { state: "in_progress"; nextAttempt: number };

/** The outcome of the attempts made so far (in order): the first that passes wins; ten failures end it. */
export function transformOutcome(attempts: readonly TransformAttempt[], correct: string): TransformOutcome {
  let lastReason = "";
  for (const [i, attempt] of attempts.entries()) {
    const verdict = attemptVerdict(attempt, correct);
    if (verdict.ok)
      return { state: "transformed", attempt: i + 1, wrong: attempt.four!, checks: attemptChecks(attempt) };
    lastReason = verdict.reason;
    if (i + 1 >= MAX_TRANSFORM_ATTEMPTS)
      return { state: "could_not_transform", attempts: i + 1, lastReason, checks: attemptChecks(attempt) };
  }
  return { state: "in_progress", nextAttempt: attempts.length + 1 };
}
