/**
 * The word and sentence counts behind every caption length rule. FrameJury counts; the LLM never does:
 * models miscount words, and a rule whose input changes between calls cannot be checked or reproduced.
 *
 * Words. A word is a token between whitespace (spaces, tabs, line breaks, no-break spaces) that contains at
 * least one letter or digit, so a lone "—", "-", "…" or an emoji is not a word. In detail:
 * - Hyphenated compounds are one word ("state-of-the-art", "10-year-old"), and so are numbers with
 *   punctuation ("3.5", "1,000", "12:30"), contractions ("don't") and slashed pairs ("and/or"): they are
 *   one token, and that is how word processors and the people who write length limits count them.
 * - Dashes used as punctuation separate words even without spaces: em dash, en dash, horizontal bar and a
 *   double hyphen ("cat—dog", "cat--dog" are two words). So does an ellipsis ("wait…what"). A single
 *   hyphen never does.
 * - Line breaks separate words like spaces, so a poem's lines never run together. AnyCapEval's reference
 *   poems often hold the two characters backslash and "n" where a line break was meant (the text was escaped
 *   twice before it went into the JSONL); those are read as line breaks too, or "roads,\nConcrete" would
 *   count as one word.
 * - CJK: Chinese and Japanese are written without spaces, so each Han, Hiragana or Katakana character counts
 *   as one word (the usual convention for length limits in those scripts). Korean uses spaces and is
 *   counted like English.
 *
 * Sentences: see countSentences.
 */

// Han, Hiragana and Katakana characters; CJK punctuation is not among them.
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CJK_CHARS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
// Punctuation that separates words even when written without spaces around it.
const WORD_SEPARATORS = /[\u2013\u2014\u2015\u2026]|-{2,}|\.{3,}/gu;
const LITERAL_LINE_BREAK = /\\r\\n|\\n/g;

/** The text with escaped line breaks made real; the basis of both counts. */
function normalizeBreaks(text: string): string {
  return text.replace(LITERAL_LINE_BREAK, "\n");
}

function wordsInToken(token: string): number {
  if (!CJK_CHAR.test(token)) return LETTER_OR_DIGIT.test(token) ? 1 : 0;
  const cjk = token.match(CJK_CHARS)?.length ?? 0;
  // Latin runs inside CJK text ("用iPhone拍") are words of their own.
  const others = token.split(CJK_CHARS).filter((part) => LETTER_OR_DIGIT.test(part)).length;
  return cjk + others;
}

/** The number of words in a caption, as defined above. Empty or punctuation-only text has 0 words. */
export function countWords(text: string): number {
  let count = 0;
  for (const token of normalizeBreaks(text).replace(WORD_SEPARATORS, " ").split(/\s+/u)) {
    if (token) count += wordsInToken(token);
  }
  return count;
}

/**
 * Abbreviations that never end a sentence: titles before a name and the Latin "for example" family, which
 * always continue the sentence they are in.
 */
const NEVER_FINAL = new Set([
  "mr",
  "mrs",
  "ms",
  "mx",
  "dr",
  "prof",
  "st",
  "mt",
  "capt",
  "col",
  "gen",
  "lt",
  "sgt",
  "rev",
  "hon",
  "fr",
  "e.g",
  "i.e",
  "vs",
  "cf",
  "viz",
]);
/** Abbreviations that end a sentence only when the next word does not start in lower case ("… in the U.S. Then …"). */
const MAYBE_FINAL = new Set([
  "etc",
  "a.m",
  "p.m",
  "jr",
  "sr",
  "inc",
  "ltd",
  "co",
  "corp",
  "u.s",
  "u.k",
  "u.n",
  "e.u",
  "approx",
  "fig",
]);

const CLOSING = /["'”’»)\]]+$/u;
const OPENING = /^["'“‘«([]+/u;

function startsLowerCase(token: string | undefined): boolean {
  if (token === undefined) return false;
  return /^\p{Ll}/u.test(token.replace(OPENING, ""));
}

function endsSentence(token: string, next: string | undefined): boolean {
  const closed = token.replace(CLOSING, "");
  const hadClosing = closed.length !== token.length;
  const terminator = /(?:[.!?\u3002\uff01\uff1f\uff0e]|\u2026)+$/u.exec(closed)?.[0];
  if (!terminator) return false;
  if (/[\u3002\uff01\uff1f\uff0e]/u.test(terminator)) return true;
  if (/[!?]/.test(terminator)) {
    // `"Stop!" he said.` is one sentence: a quoted exclamation followed by a lower-case word continues it.
    return !(hadClosing && startsLowerCase(next));
  }
  if (terminator.includes("\u2026") || terminator.length >= 3) {
    // An ellipsis trails off inside a sentence unless a new sentence visibly starts after it.
    return !startsLowerCase(next);
  }
  if (terminator.length > 1) return true;
  const word = closed.slice(0, -1).replace(OPENING, "").toLowerCase();
  if (NEVER_FINAL.has(word)) return next === undefined;
  if (/^\p{L}$/u.test(word)) return next === undefined; // an initial: "J. K. Rowling"
  if (MAYBE_FINAL.has(word) || /^(?:\p{L}\.)+\p{L}$/u.test(word)) return !startsLowerCase(next);
  return true;
}

/**
 * The number of sentences. A sentence ends at ".", "!" or "?" (a run such as "?!" or "!!!" ends one
 * sentence) followed by whitespace or the end of the text, or at the CJK full stops "。", "！", "？".
 * It does not end at:
 * - abbreviations: titles ("Mr.", "Dr."), "e.g.", "i.e.", "vs." and initials ("J.") never end a sentence;
 *   "etc.", "a.m.", "U.S." and other dotted abbreviations end one only when the next word does not start in
 *   lower case;
 * - a decimal point or any "." inside a token ("3.5", "example.com"), since no whitespace follows it;
 * - an ellipsis ("…" or "...") followed by a lower-case word.
 * Text after the last terminator is a sentence too when it holds a word, so an unterminated caption is one
 * sentence and empty text is none; a stretch without words ("!!!") is not a sentence.
 *
 * Line breaks do not end sentences, in poems or elsewhere: a length limit that says "sentences" means
 * sentences, and a poem's lines are verse lines. A poem punctuated as prose counts its sentences; a poem
 * without any terminator is one sentence. (AnyCapEval asks for "exactly three sentences" of poems whose
 * references are six to eight lines ending in three full stops, which is this reading.)
 */
export function countSentences(text: string): number {
  const spaced = normalizeBreaks(text).replace(/([\u3002\uff01\uff1f])/gu, "$1 ");
  const tokens = spaced.split(/\s+/u).filter(Boolean);
  let sentences = 0;
  let hasWord = false;
  tokens.forEach((token, index) => {
    if (countWords(token) > 0) hasWord = true;
    if (endsSentence(token, tokens[index + 1]) && hasWord) {
      sentences += 1;
      hasWord = false;
    }
  });
  return hasWord ? sentences + 1 : sentences;
}

/**
 * How a caption run counts words and sentences: FrameJury's rules above (the default), or exactly as
 * AnyCapEval's own scorer does, so a lab can reproduce the benchmark's length penalties.
 */
export const WORD_COUNTINGS = ["framejury", "anycapeval"] as const;
export type WordCounting = (typeof WORD_COUNTINGS)[number];

export const WORD_COUNTING_LABELS: Record<WordCounting, string> = {
  framejury: "FrameJury's counting (numerals and every token with a letter or digit are words)",
  anycapeval: "as AnyCapEval counts (runs of ASCII letters and CJK characters; sentences split at . ! ?)",
};

// AnyCapEval's count_total_words (anycapeval_video_style.py): Python's re.findall of
// \b[a-zA-Z]+(?:['-][a-zA-Z]+)*\b plus one per character of [\u4e00-\u9fff\u3000-\u303f\uff00-\uffef] (CJK
// ideographs, CJK punctuation, full-width forms). Python's \b on str is Unicode-aware (a word character is a
// letter, a number or "_"), JavaScript's is ASCII-only, so the boundaries are spelled out: "café" has no word
// there, "3D" none, "well-lit" and "don't" one each.
const ANYCAPEVAL_WORD = /(?<![\p{L}\p{N}_])[a-zA-Z]+(?:['-][a-zA-Z]+)*(?![\p{L}\p{N}_])/gu;
const ANYCAPEVAL_CJK = /[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]/g;

/** The number of words as AnyCapEval's scorer counts them (numerals are not words; see above). */
export function countWordsAsAnyCapEval(text: string): number {
  return (text.match(ANYCAPEVAL_WORD)?.length ?? 0) + (text.match(ANYCAPEVAL_CJK)?.length ?? 0);
}

/** AnyCapEval's sentences_count: the pieces of re.split(r'[.!?]', text) that hold anything but white space. */
export function countSentencesAsAnyCapEval(text: string): number {
  return text.split(/[.!?]/).filter((piece) => piece.trim().length > 0).length;
}

/** The word and sentence counters of a counting. */
export function counters(counting: WordCounting): {
  words: (text: string) => number;
  sentences: (text: string) => number;
} {
  return counting === "anycapeval"
    ? { words: countWordsAsAnyCapEval, sentences: countSentencesAsAnyCapEval }
    : { words: countWords, sentences: countSentences };
}
