/**
 * The option a multiple-choice answer picks, read deterministically from the model's raw answer, the way
 * seed 004 compares "character matches in the predicted options": FrameJury asks a judge only when this
 * finds no single option.
 *
 * Accepted: a bare letter ("B", "b", "(B)", "B.", "[B]", "**B**"), a letter in a sentence ("The answer is B",
 * "Answer: B", "Best option:(B"), a letter with its option's text ("B. Tissue is applied…"), an option's full
 * text without its letter, and a JSON answer whose `answer`/`Best_option`/… field holds one of those.
 * Refused (no letter): an empty answer, a refusal, an answer naming two or more options ("B or C", "not B
 * but C"), a letter whose text belongs to another option, and prose that names no option at all. Lower-case
 * letters count only as the whole answer or after "answer/option/choice", since "a" is also an article;
 * so do a capital "A" or "I" that start a phrase ("A person…", "I think…").
 */

export const OPTION_LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"] as const; // option letters: not a task name
export type OptionLetter = (typeof OPTION_LETTERS)[number];

export type LetterExtraction =
  | { letter: OptionLetter; how: "letter" | "option_text" | "letter_and_text"; reason: string }
  | { letter: null; how: "empty" | "several" | "conflict" | "none"; reason: string };

/** Keys of a JSON answer that hold the chosen option (seed 004's blind prompt answers {"Best_option": …}). */
const ANSWER_KEYS = /^(?:best[_ ]?option|answer|final[_ ]?answer|option|choice|selected[_ ]?option|prediction)$/i;

/** Words after which a capital "A" (or "I") is an option letter rather than an article (or a pronoun). */
const AFTER_LETTER = new Set(["and", "or", "is", "was", "seems", "looks", "because", "since", "as", "but", "nor", "then", "which", "would", "could", "should", "might", "must", "fits", "matches", "describes", "corresponds", "are", "were", "appears"]);

function unwrapJson(text: string): string {
  const trimmed = text.trim().replace(/^```[a-z]*\s*\n?([\s\S]*?)\n?```$/i, "$1").trim();
  if (!trimmed.startsWith("{")) return text;
  try {
    const value = JSON.parse(trimmed) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, field] of Object.entries(value)) {
        if (ANSWER_KEYS.test(key) && (typeof field === "string" || typeof field === "number")) return String(field);
      }
    }
  } catch {
    // Not JSON after all: read it as prose.
  }
  return text;
}

/** Lower case, markdown emphasis and quotes gone, runs of white space as one space. */
function normalise(text: string): string {
  return text
    .replace(/[*_`"“”‘’]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The option texts the answer quotes in full, longest first so that an option inside another is not counted twice. */
function quotedOptions(answer: string, options: Readonly<Record<string, string>>): Set<OptionLetter> {
  let rest = ` ${normalise(answer)} `;
  const letters = new Set<OptionLetter>();
  const entries = Object.entries(options)
    .map(([letter, text]) => [letter as OptionLetter, normalise(text).replace(/[.!?]+$/, "")] as const)
    .filter(([, text]) => text.length > 0)
    .sort((a, b) => b[1].length - a[1].length);
  for (const [letter, text] of entries) {
    const pattern = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(text)}(?=$|[^\\p{L}\\p{N}])`, "gu");
    if (pattern.test(rest)) {
      letters.add(letter);
      rest = rest.replace(pattern, "$1 ");
    }
  }
  return letters;
}

/** The original answer with every quoted option text blanked out, so a capital inside an option ("plan B") is not read as a letter. */
function withoutOptionTexts(answer: string, options: Readonly<Record<string, string>>): string {
  let text = answer.replace(/[*_`]/g, " ");
  const texts = Object.values(options)
    .map((t) => t.trim().replace(/[.!?]+$/, ""))
    .filter((t) => t.length > 0)
    .sort((a, b) => b.length - a.length);
  for (const option of texts) {
    text = text.replace(new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(option).replace(/\s+/g, "\\s+")}(?=$|[^\\p{L}\\p{N}])`, "giu"), "$1 ");
  }
  return text;
}

function lettersIn(text: string, valid: ReadonlySet<string>): Set<OptionLetter> {
  const found = new Set<OptionLetter>();
  // "answer is b", "option (c)", "choice: d": the one place a lower-case letter counts inside prose.
  for (const match of text.matchAll(/\b(?:answer|option|choice)\s*(?:is|:|=|-)?\s*[([]?([a-j])\b(?![''’][a-z])/gi)) {
    const letter = match[1]!.toUpperCase();
    if (valid.has(letter)) found.add(letter as OptionLetter);
  }
  for (const match of text.matchAll(/(?<![\p{L}\p{N}'’])([A-J])(?![\p{L}\p{N}'’])/gu)) {
    const letter = match[1]!;
    if (!valid.has(letter)) continue;
    if (letter === "A" || letter === "I") { // the article and the pronoun: not a task name
      const after = text.slice(match.index! + 1);
      const next = /^\s+([a-z][a-z]*)/.exec(after)?.[1];
      const before = text.slice(0, match.index!);
      const startsPhrase = /(^|[.!?:;]\s*|\n\s*)$/.test(before);
      // "A person pours…", "I think…": an article or a pronoun, unless a connective shows it names an option.
      if (next !== undefined && !AFTER_LETTER.has(next) && (startsPhrase || letter === "I")) continue; // the pronoun: not a task name
    }
    found.add(letter as OptionLetter);
  }
  return found;
}

const list = (letters: Iterable<string>) => [...letters].sort().join(", ");

/**
 * The one option the answer picks, or none with the reason. `options` maps letters (A–J) to the options'
 * texts; only those letters count.
 */
export function extractOptionLetter(rawAnswer: string | null | undefined, options: Readonly<Record<string, string>>): LetterExtraction {
  const valid = new Set(Object.keys(options));
  const answer = unwrapJson(rawAnswer ?? "").trim();
  if (!answer) return { letter: null, how: "empty", reason: "the answer is empty" };

  // The whole answer is one letter, however decorated ("b", "(B)", "B.", "[C]", "Option D", "**E**").
  const bare = /^(?:the\s+)?(?:(?:best\s+)?(?:answer|option|choice)\s*(?:is|:)?\s*)?[([]?\s*([a-j])\s*[)\]]?\s*[.:)]?$/i.exec(answer.replace(/[*_`"'“”]/g, "").trim());
  if (bare) {
    const letter = bare[1]!.toUpperCase();
    if (valid.has(letter)) return { letter: letter as OptionLetter, how: "letter", reason: `the answer is the letter ${letter}` };
    return { letter: null, how: "none", reason: `the answer is the letter ${letter}, which is not one of the options (${list(valid)})` };
  }

  const quoted = { letters: quotedOptions(answer, options) };
  const letters = lettersIn(withoutOptionTexts(answer, options), valid);
  if (letters.size > 1) return { letter: null, how: "several", reason: `the answer names several options (${list(letters)})` };
  if (letters.size === 1) {
    const [letter] = letters as Set<OptionLetter>;
    if (quoted.letters.size === 0) return { letter: letter!, how: "letter", reason: `the answer names option ${letter}` };
    if (quoted.letters.size === 1 && quoted.letters.has(letter!)) return { letter: letter!, how: "letter_and_text", reason: `the answer names option ${letter} with its text` };
    return { letter: null, how: "conflict", reason: `the answer names option ${letter} but quotes the text of option ${list(quoted.letters)}` };
  }
  if (quoted.letters.size === 1) {
    const [letter] = quoted.letters;
    return { letter: letter!, how: "option_text", reason: `the answer quotes the text of option ${letter}` };
  }
  if (quoted.letters.size > 1) return { letter: null, how: "several", reason: `the answer quotes several options (${list(quoted.letters)})` };
  return { letter: null, how: "none", reason: "the answer names no option letter and quotes no option's text" };
}
