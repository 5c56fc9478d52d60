/**
 * The five option letters of a transformed multiple-choice question (seed 004: one correct answer, four
 * wrong ones). In a module of their own so that browser code (the curation screen's edit check) can use
 * them without balance-answer-letters.ts's node:crypto, whose browser polyfill calls eval.
 */
export const MC_LETTERS = ["A", "B", "C", "D", "E"] as const; // option letters: not a task name
export type McLetter = (typeof MC_LETTERS)[number];
