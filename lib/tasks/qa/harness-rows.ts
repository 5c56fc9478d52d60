/**
 * The rows a harness file yields (harness-lmms-eval.ts, harness-vlmevalkit.ts) and the text helpers both
 * formats and the matcher (harness-match.ts) read them with.
 */
import type { QuestionPayload } from "./question-set-import";

export interface HarnessRowError {
  line: number;
  message: string;
}

/** One readable row: which question it answers and what the model said. */
export interface HarnessRow {
  line: number;
  id: string | null;
  video: string | null;
  question: string | null;
  prediction: string;
  /** The options the file gives (letter → text), null for an open question or when it gives none. */
  options: Record<string, string> | null;
  /** The correct option's letter (multiple choice) or the reference answer (open), when the file gives it. */
  answer: string | null;
}

export interface SetQuestion {
  itemId: string;
  videoId: string;
  externalId: string;
  videoPath: string;
  payload: QuestionPayload;
}

export const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
/** A video's name without folders or extension, as the harnesses name videos (Video-MME's `videoID`). */
export const videoStem = (name: string) =>
  normalise(
    name
      .split(/[\\/]/)
      .pop()!
      .replace(/\.[a-z0-9]{2,4}$/i, ""),
  );

export const asText = (value: unknown) =>
  typeof value === "string" && value.trim() !== "" ? value : typeof value === "number" ? String(value) : null;

export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const LETTERED = /^\(?([A-Z])[.):]\s*/;

/** The correct letter from a harness's answer field: a letter, an option's index (EgoSchema) or an option's text (MVBench). */
export function answerLetter(answer: string | null, options: Record<string, string>): string | null {
  if (answer === null) return null;
  const text = answer.trim();
  const letter = /^\(?([A-Z])\)?[.:]?$/.exec(text)?.[1];
  if (letter && letter in options) return letter;
  if (/^\d+$/.test(text) && LETTERS[Number(text)]! in options) return LETTERS[Number(text)]!;
  const bare = normalise(text.replace(LETTERED, ""));
  return Object.entries(options).find(([, option]) => normalise(option) === bare)?.[0] ?? null;
}
