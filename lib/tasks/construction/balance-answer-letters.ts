/**
 * Where the correct answer goes among a multiple-choice question's five options (seed 004's transformation
 * makes one correct answer and four wrong ones, lettered A–E). Over a benchmark the correct letter is spread
 * evenly, so that a model that favours one letter gains nothing: the questions are put in an order fixed by a
 * hash of their id and a seed (so it looks random but is reproducible), and the k-th question's correct
 * answer takes letter k mod 5. Every letter is then correct for ⌊n/5⌋ or ⌈n/5⌉ questions. The wrong answers
 * fill the other letters in the order they were chosen.
 */
import { createHash } from "node:crypto";

import { MC_LETTERS, type McLetter } from "./mc-letters";

export { MC_LETTERS, type McLetter };

export interface TransformedQuestion {
  id: string;
  correct: string;
  /** Exactly four. */
  wrong: readonly string[];
}

export interface LetteredQuestion {
  id: string;
  options: Record<McLetter, string>;
  answer: McLetter;
}

const order = (id: string, seed: string) => createHash("sha256").update(`${seed}\u0000${id}`).digest("hex");

export function balanceAnswerLetters(
  questions: readonly TransformedQuestion[],
  seed = "framejury",
): LetteredQuestion[] {
  for (const q of questions) {
    if (q.wrong.length !== MC_LETTERS.length - 1)
      throw new Error(
        `Question ${q.id} has ${q.wrong.length} wrong answers; a five-option question needs ${MC_LETTERS.length - 1}.`,
      );
  }
  const ranked = [...questions].sort((a, b) =>
    order(a.id, seed) < order(b.id, seed) ? -1 : order(a.id, seed) > order(b.id, seed) ? 1 : a.id < b.id ? -1 : 1,
  );
  const letterOf = new Map(ranked.map((q, k) => [q.id, MC_LETTERS[k % MC_LETTERS.length]!]));
  return questions.map((q) => {
    const answer = letterOf.get(q.id)!;
    const wrong = [...q.wrong];
    const options = Object.fromEntries(
      MC_LETTERS.map((letter) => [letter, letter === answer ? q.correct : wrong.shift()!]),
    ) as Record<McLetter, string>;
    return { id: q.id, options, answer };
  });
}

/** How many questions have each letter as their correct answer. */
export function letterHistogram(answers: readonly string[]): Record<McLetter, number> {
  const histogram = Object.fromEntries(MC_LETTERS.map((l) => [l, 0])) as Record<McLetter, number>;
  for (const answer of answers)
    if ((MC_LETTERS as readonly string[]).includes(answer)) histogram[answer as McLetter] += 1;
  return histogram;
}
