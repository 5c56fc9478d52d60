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
 * so do a capital "A" or "I" that start a phrase ("A person…", "I think…"), and a capital "E" that starts a
 * phrase before a lower-case word (the Italian and Portuguese "and"). "I" before a modal verb ("I would say…",
 * "I could…") is the pronoun, even in questions with nine or more options.
 *
 * Other languages: the text is NFKC-normalised first (full-width "Ｂ" and "（Ｂ）" as "B" and "(B)"), a letter
 * next to a character of another script counts ("答案是B", "答えはBです", "정답은 B입니다"), and the words for
 * "answer", "option" and "choice" of the languages in ANSWER_WORDS and OPTION_WORDS introduce a letter as
 * "answer" does in English ("La respuesta es b", "答案：B").
 *
 * Explanations: when the first line of a longer answer is only a letter (or a letter with its own option's
 * text), that line is the answer, and the explanation after it may name the options it rejects ("B\nA is
 * wrong because…"); unless the explanation states another answer ("…so the answer is C"), which is a conflict.
 */

export const OPTION_LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"] as const; // option letters: not a task name
export type OptionLetter = (typeof OPTION_LETTERS)[number];

export type LetterExtraction =
  { letter: OptionLetter; how: "letter" | "option_text" | "letter_and_text"; reason: string } | { letter: null; how: "empty" | "several" | "conflict" | "none"; reason: string };

/** Keys of a JSON answer that hold the chosen option (seed 004's blind prompt answers {"Best_option": …}). */
const ANSWER_KEYS = /^(?:best[_ ]?option|answer|final[_ ]?answer|option|choice|selected[_ ]?option|prediction)$/i;

/** Words after which a capital "A", "E" or "I" is an option letter rather than an article, a conjunction or a pronoun. */
const AFTER_LETTER = new Set([
  "and",
  "or",
  "is",
  "was",
  "seems",
  "looks",
  "because",
  "since",
  "as",
  "but",
  "nor",
  "then",
  "which",
  "would",
  "could",
  "should",
  "might",
  "must",
  "fits",
  "matches",
  "describes",
  "corresponds",
  "are",
  "were",
  "appears",
]);
/** Modal verbs: after "I" they make it the pronoun ("I would say B", "I could not tell"), never option I. */
const MODALS = new Set(["would", "could", "should", "might", "must", "will", "can", "may", "shall"]);

/**
 * "Answer" in the languages answers come in (a letter after one of these is the answer, in any case). English
 * first; then Spanish, French, German, Portuguese, Italian, Dutch, Russian, Polish, Turkish, Vietnamese,
 * Indonesian, Hindi, Chinese (simplified and traditional), Japanese and Korean.
 */
const ANSWER_WORDS = [
  "answer",
  "respuesta",
  "réponse",
  "reponse",
  "antwort",
  "lösung",
  "resposta",
  "risposta",
  "antwoord",
  "ответ",
  "odpowiedź",
  "odpowiedz",
  "cevap",
  "đáp án",
  "câu trả lời",
  "jawaban",
  "उत्तर",
  "正确答案",
  "正確答案",
  "最终答案",
  "最終答案",
  "答案",
  "答え",
  "正解",
  "回答",
  "정답",
  "답",
];
/** "Option" and "choice" in the same languages: they introduce a letter too, but an explanation uses them for the options it rejects. */
const OPTION_WORDS = [
  "option",
  "choice",
  "opción",
  "opcion",
  "alternativa",
  "choix",
  "wahl",
  "opção",
  "opcao",
  "opzione",
  "scelta",
  "optie",
  "keuze",
  "вариант",
  "opcja",
  "seçenek",
  "lựa chọn",
  "pilihan",
  "विकल्प",
  "选项",
  "選項",
  "选择",
  "選擇",
  "選択肢",
  "선택지",
  "보기",
];
/** What may stand between such a word and its letter: "correct", a copula or a colon, and an article ("la B", "die B"). */
const COPULA = String.raw`(?:\s+(?:correcta|correcto|correcte|correct|correta|corretta|richtige|juste|bonne|juist))?(?:\s*(?:is|es|est|ist|é|è|era|é a|é o|это|jest|là|adalah|है|是|为|為|は|が|은|는|:|=|-|—))?\s*(?:(?:la|el|le|l'|die|der|das|a|o|de|het|la opción|l'option|option|opción|选项|選項)\s*)?`;
const alternation = (words: readonly string[]) => words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
/** A lower-case or capital letter introduced by one of the words above ("answer is b", "答案：B", "la respuesta es la b"). */
const INTRODUCED_LETTER = new RegExp(String.raw`(?:${alternation([...ANSWER_WORDS, ...OPTION_WORDS])})${COPULA}[([]?\s*([a-j])(?![\p{Script=Latin}\p{N}]|[''’][a-z])`, "giu");
/** The same, with the words for "answer" alone: an explanation that states its answer again. */
const STATED_ANSWER = new RegExp(String.raw`(?:${alternation(ANSWER_WORDS)})${COPULA}[([]?\s*([a-j])(?![\p{Script=Latin}\p{N}]|[''’][a-z])`, "giu");
/** The whole answer is one letter, however decorated ("b", "(B)", "B.", "[C]", "Option D", "**E**", "答案：B", "Respuesta: b"). */
const BARE_LETTER = new RegExp(
  String.raw`^(?:the\s+)?(?:(?:(?:best|final|correct|correcta|correcte|richtige)\s+)?(?:${alternation([...ANSWER_WORDS, ...OPTION_WORDS])})${COPULA})?[([]?\s*([a-j])\s*[)\]]?\s*[.:)。]?$`,
  "iu",
);

function unwrapJson(text: string): string {
  const trimmed = text
    .trim()
    .replace(/^```[a-z]*\s*\n?([\s\S]*?)\n?```$/i, "$1")
    .trim();
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
  // "answer is b", "option (c)", "la respuesta es b": the one place a lower-case letter counts inside prose.
  for (const match of text.matchAll(INTRODUCED_LETTER)) {
    const letter = match[1]!.toUpperCase();
    if (valid.has(letter)) found.add(letter as OptionLetter);
  }
  // A capital letter standing alone among Latin letters; next to another script it still stands alone ("答案是B").
  for (const match of text.matchAll(/(?<![\p{Script=Latin}\p{N}'’])([A-J])(?![\p{Script=Latin}\p{N}'’])/gu)) {
    const letter = match[1]!;
    if (!valid.has(letter)) continue;
    if (letter === "A" || letter === "E" || letter === "I") {
      // the article, "and" and the pronoun: not a task name
      const after = text.slice(match.index! + 1);
      const next = /^\s+([\p{Ll}][\p{Ll}]*)/u.exec(after)?.[1];
      const before = text.slice(0, match.index!);
      const startsPhrase = /(^|[.!?:;。！？]\s*|\n\s*)$/.test(before);
      if (letter === "I" && next !== undefined && MODALS.has(next)) continue; // "I would say…": the pronoun, not a task name
      // "A person pours…", "E quindi…", "I think…": an article, a conjunction or a pronoun, unless a connective shows it names an option.
      if (next !== undefined && !AFTER_LETTER.has(next) && (startsPhrase || letter === "I")) continue; // the option letter I: not a task name
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
  options = Object.fromEntries(Object.entries(options).map(([letter, text]) => [letter, text.normalize("NFKC")]));
  const answer = unwrapJson((rawAnswer ?? "").normalize("NFKC")).trim();
  if (!answer) return { letter: null, how: "empty", reason: "the answer is empty" };

  const bare = BARE_LETTER.exec(answer.replace(/[*_`"'“”]/g, "").trim());
  if (bare) {
    const letter = bare[1]!.toUpperCase();
    if (valid.has(letter)) return { letter: letter as OptionLetter, how: "letter", reason: `the answer is the letter ${letter}` };
    return { letter: null, how: "none", reason: `the answer is the letter ${letter}, which is not one of the options (${list(valid)})` };
  }

  const firstLine = firstLineAnswer(answer, options, valid);
  if (firstLine) return firstLine;

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

/**
 * A first line that is only a letter (or a letter with its own option's text), followed by an explanation:
 * the first line is the answer, whatever options the explanation goes on to name, unless the explanation
 * states another answer. Null when the answer is one line or its first line is something else.
 */
function firstLineAnswer(answer: string, options: Readonly<Record<string, string>>, valid: ReadonlySet<string>): LetterExtraction | null {
  const lines = answer.split(/\r?\n/);
  const first = lines[0]!.trim();
  const rest = lines.slice(1).join("\n").trim();
  if (!first || !rest) return null;
  const head = extractOptionLetter(first, options);
  if (head.letter === null) return null;
  const onlyTheLetter = BARE_LETTER.test(first.replace(/[*_`"'“”]/g, "").trim());
  if (!onlyTheLetter && head.how !== "letter_and_text") return null;
  const restated = new Set([...rest.matchAll(STATED_ANSWER)].map((m) => m[1]!.toUpperCase()).filter((l) => valid.has(l)));
  restated.delete(head.letter);
  if (restated.size > 0) return { letter: null, how: "conflict", reason: `the first line is option ${head.letter} but the explanation states the answer ${list(restated)}` };
  return { letter: head.letter, how: head.how, reason: `the first line is option ${head.letter}; the explanation after it is not read for letters` };
}
