/**
 * The keys that toggle a presence-first item's categories, in the order the task declares them: the
 * first ten get the digits 1–9 and 0 (a category's number), the rest letters the review screen uses
 * for nothing else (not j/k/y/n/a/m/A). Plain TS, shared by the server's item payload and the screen.
 */
export const PRESENCE_DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"] as const;
export const PRESENCE_LETTERS = [
  "q",
  "w",
  "e",
  "r",
  "t",
  "u",
  "i",
  "o",
  "p",
  "s",
  "d",
  "f",
  "g",
  "h",
  "l",
  "z",
  "c",
  "v",
  "b",
] as const;
const PRESENCE_KEYS: readonly string[] = [...PRESENCE_DIGITS, ...PRESENCE_LETTERS];

/** The toggle key of the category at `index`, or null past the last key (such a category is toggled by clicking it). */
export function presenceKey(index: number): string | null {
  return PRESENCE_KEYS[index] ?? null;
}

/** Every key that can toggle a category, for the screen's key filter. */
export const PRESENCE_KEY_SET: ReadonlySet<string> = new Set(PRESENCE_KEYS);
