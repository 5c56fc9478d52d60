/**
 * The option a multiple-choice answer picks, read deterministically from the model's raw answer, the way
 * seed 004 compares "character matches in the predicted options": FrameJury asks a judge only when this
 * finds no single option. docs/tasks/qa.md ("How the option letter is read") states these rules for users.
 *
 * Accepted: a bare letter ("B", "b", "(B)", "B.", "[B]", "**B**"), a letter in a sentence ("The answer is B",
 * "Answer: B", "Best option:(B"), a letter with its option's text ("B. Tissue is applied…", "b) …"), an option's
 * full text without its letter, and a JSON answer whose `answer`/`Best_option`/… field holds one of those.
 * Refused (no letter): an empty answer, a refusal, an answer naming two or more options ("B or C", "A/B",
 * "between A and C"), a letter whose text belongs to another option, and prose that names no option at all.
 * Lower-case letters count only as the whole answer, as a label opening a line ("b. …", "b) …") or after
 * "answer/option/choice", since "a" is also an article; so do a capital "A" or "I" that start a phrase ("A
 * person…", "I think…"), and a capital "E" that starts a phrase before a lower-case word (the Italian and
 * Portuguese "and"). "I" before a modal verb ("I would say…", "I could…") is the pronoun, even in questions with
 * nine or more options. A letter inside a word, hyphenated ones included ("Bravo", "B-roll", "an A-frame"), is
 * no letter.
 *
 * Lists (issue 38): options written out each with its letter, one per line ("B. …\nC. …", bullets and
 * numbering included) or several in one line in their order ("(A) … (B) …"), are a list, not a choice. The
 * choice is read from the rest of the answer ("A. …\nB. …\nC. …\nAnswer: B" is B); with nothing else there,
 * none.
 *
 * Ruled out (issue 38): a letter the answer rejects ("not A", "A is wrong", "neither A nor B") is not its
 * choice. An answer that rejects some and names another ("A, B and C are wrong, D", "Not B, it is D") is not
 * read either: which option prose settles on takes understanding it (the scope of a "not", a change of mind), a
 * misread would be silent (a letter's decision needs no review) while the judge costs one call, and the
 * prompt asks for the letter alone. The structural exception is the first line below.
 *
 * Other languages: the text is NFKC-normalised first (full-width "Ｂ" and "（Ｂ）" as "B" and "(B)"), a letter
 * next to a character of another script counts ("答案是B", "答えはBです", "정답은 B입니다"), and the words for
 * "answer", "option" and "choice" of the languages in ANSWER_WORDS and OPTION_WORDS introduce a letter as
 * "answer" does in English ("La respuesta es b", "答案：B").
 *
 * Explanations: when the first line of a longer answer is only a letter (or a letter with its own option's
 * text), and not the start of a list, that line is the answer, and the explanation after it may name the
 * options it rejects ("B\nA is wrong because…"); unless the explanation states another answer ("…so the answer
 * is C"), which is a conflict.
 */

export const OPTION_LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"] as const; // option letters: not a task name
export type OptionLetter = (typeof OPTION_LETTERS)[number];

export type LetterExtraction =
  | { letter: OptionLetter; how: "letter" | "option_text" | "letter_and_text"; reason: string }
  | { letter: null; how: "empty" | "several" | "conflict" | "list" | "ruled_out" | "none"; reason: string };

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
const INTRODUCED_LETTER = new RegExp(
  String.raw`(?:${alternation([...ANSWER_WORDS, ...OPTION_WORDS])})${COPULA}[([]?\s*([a-j])(?![\p{Script=Latin}\p{N}]|[''’][a-z]|-\p{L}{2})`,
  "giu",
);
/** The same, with the words for "answer" alone: an explanation that states its answer again. */
const STATED_ANSWER = new RegExp(
  String.raw`(?:${alternation(ANSWER_WORDS)})${COPULA}[([]?\s*([a-j])(?![\p{Script=Latin}\p{N}]|[''’][a-z]|-\p{L}{2})`,
  "giu",
);
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
    text = text.replace(
      new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(option).replace(/\s+/g, "\\s+")}(?=$|[^\\p{L}\\p{N}])`, "giu"),
      "$1 ",
    );
  }
  return text;
}

/** One letter the answer names, where, and whether the answer rules it out there. */
interface Mention {
  letter: OptionLetter;
  index: number;
  ruledOut: boolean;
}

/** A letter in a run of letters ("A, B and C", "A/B", "A nor B"), and what joins it to the next. */
const LETTER_ITEM = String.raw`[([]?\s*[A-Ja-j]\s*[)\]]?`;
const LETTER_JOIN = String.raw`(?:\s*,\s*(?:(?:and|or|nor)\s+)?|\s*\/\s*|\s+(?:and|or|nor)\s+|\s*[、和或]\s*)`;
/**
 * Words that rule out the letters after them ("not A", "neither A nor B", "rules out B and C", "答案不是A"),
 * in English and a few of the languages above; the run of letters that follows shares the negation.
 */
const RULED_OUT_BEFORE = new RegExp(
  String.raw`(?:(?:^|[^\p{L}])(?:not|never|neither|nor|except|excluding|exclude|excludes|rule out|rules out|ruled out|ruling out|eliminate|eliminates|eliminated|rather than|instead of|isn't|wasn't|nicht|pas)\s+(?:(?:the\s+)?(?:option|choice|answer)s?\s+)?|(?:不是|并非|並非|而非|排除)\s*(?:选项|選項)?\s*)(?:${LETTER_ITEM}${LETTER_JOIN})*[([]?\s*$`,
  "iu",
);
/**
 * What rules out the letters before it ("A is wrong", "A, B and C are incorrect", "C isn't it", "A: wrong"), right
 * after them: after a comma it is a tag question ("B, isn't it?") or another clause.
 */
const RULED_OUT_AFTER = new RegExp(
  String.raw`^\s*[)\]]?(?:${LETTER_JOIN}${LETTER_ITEM})*(?:\s+(?:is|are|was|were|seems?|looks?|appears?|would be|must be)\s+(?:(?:all|both|also|clearly|definitely|obviously|certainly|surely|probably|then)\s+)?(?:not\b|wrong|incorrect|false|ruled out|excluded|eliminated|unlikely|implausible|impossible)|\s+(?:isn't|aren't|wasn't|weren't|can't|cannot|doesn't|don't|does not|do not)\b|\s*[:(–—-]\s*(?:wrong|incorrect|false)\b)`,
  "iu",
);

function isRuledOut(text: string, index: number): boolean {
  return RULED_OUT_BEFORE.test(text.slice(0, index)) || RULED_OUT_AFTER.test(text.slice(index + 1));
}

/** Every place the answer names a letter of the question, each marked when the answer rules that letter out there. */
function mentionsIn(text: string, valid: ReadonlySet<string>): Mention[] {
  const mentions = new Map<number, Mention>();
  const add = (letter: string, index: number) => {
    if (valid.has(letter) && !mentions.has(index))
      mentions.set(index, { letter: letter as OptionLetter, index, ruledOut: isRuledOut(text, index) });
  };
  // "answer is b", "option (c)", "la respuesta es b": the one place a lower-case letter counts inside prose.
  for (const match of text.matchAll(INTRODUCED_LETTER)) add(match[1]!.toUpperCase(), match.index + match[0].length - 1);
  // "b. …", "(b) …" opening a line: a label, never the article (which is not followed by "." or ")").
  for (const match of text.matchAll(/(?<=^|\n)[ \t]*[([]?([a-j])[.)\]:](?=\s|$)/gu))
    add(match[1]!.toUpperCase(), match.index + match[0].indexOf(match[1]!));
  // A capital letter standing alone among Latin letters; next to another script it still stands alone ("答案是B").
  // Joined to a word by a hyphen it is part of that word ("B-roll", "an A-frame"); "A-B" is still two letters.
  for (const match of text.matchAll(
    /(?<![\p{Script=Latin}\p{N}'’]|\p{L}{2}-)([A-J])(?![\p{Script=Latin}\p{N}'’]|-\p{L}{2})/gu,
  )) {
    const letter = match[1]!;
    if (!valid.has(letter)) continue;
    if (letter === "A" || letter === "E" || letter === "I") {
      // the article, "and" and the pronoun: not a task name
      const after = text.slice(match.index + 1);
      const next = /^\s+([\p{Ll}][\p{Ll}]*)/u.exec(after)?.[1];
      const before = text.slice(0, match.index);
      const startsPhrase = /(^|[.!?:;。！？]\s*|\n\s*)$/.test(before);
      if (letter === "I" && next !== undefined && MODALS.has(next)) continue; // "I would say…": the pronoun, not a task name
      // "A person pours…", "E quindi…", "I think…": an article, a conjunction or a pronoun, unless a connective shows it names an option.
      if (next !== undefined && !AFTER_LETTER.has(next) && (startsPhrase || letter === "I")) continue; // the option letter I: not a task name
    }
    add(letter, match.index);
  }
  return [...mentions.values()];
}

const list = (letters: Iterable<string>) => [...new Set(letters)].sort().join(", ");
const optionsNamed = (letters: Iterable<string>) => {
  const distinct = [...new Set(letters)];
  return distinct.length === 1 ? `option ${distinct[0]}` : `options (${list(distinct)})`;
};
/** Markdown emphasis and code marks, which decorate letters ("**B.**") without changing them. */
const withoutEmphasis = (text: string) => text.replace(/\*\*|__|`/g, "");

/**
 * A line that starts with an option's letter as a label: "B. text", "(B) text", "b) text", "B: text", "- B. text",
 * "1. B", "Option B: text", or the letter alone. A capital without a mark before text ("A person…") is prose.
 */
const LABEL_LINE =
  /^\s*(?<bullet>[-*•+]\s+|\d{1,2}[.)]\s+)?(?<word>(?:option|choice)\s+)?(?<open>[([])?\s*(?<letter>[A-Ja-j])\s*(?<close>[.):\]])?(?:\s+(?<text>\S.*))?$/iu;

interface LineList {
  letters: string[];
  /** The answer without the list's lines. */
  rest: string;
  /** The list begins at the answer's first line (so that line is not an answer on its own). */
  atStart: boolean;
}

/**
 * Options written out one per line, each with its letter: two or more lines in the same form (bullet, marks
 * around the letter, with or without text) naming two or more letters, blank lines allowed between them. The
 * same form is what tells a list from a first-line answer followed by the options it rejects in another form
 * ("**C**\n\n- A: no mask…\n- B: …"). Null when the answer has no such list.
 */
function lineList(answer: string): LineList | null {
  const lines = answer.split(/\r?\n/);
  const runs: { form: string; indexes: number[]; letters: string[] }[] = [];
  let open = false; // whether the next label line of the same form continues the last run
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue; // a blank line between items does not end a list
    const label = LABEL_LINE.exec(withoutEmphasis(line))?.groups;
    if (!label || !(label.open || label.close || !label.text)) {
      open = false;
      continue;
    }
    const form = [
      label.bullet ? (/\d/.test(label.bullet) ? "1" : label.bullet.trim()) : "",
      label.word ? "option" : "",
      label.open ?? "",
      label.close ?? "",
      label.text ? "text" : "",
    ].join("|");
    const last = runs.at(-1);
    const run = open && last?.form === form ? last : { form, indexes: [], letters: [] };
    if (run !== last) runs.push(run);
    run.indexes.push(index);
    run.letters.push(label.letter!.toUpperCase());
    open = true;
  }
  const lists = runs.filter((run) => new Set(run.letters).size >= 2);
  const listed = new Set(lists.flatMap((run) => run.indexes));
  const letters = lists.flatMap((run) => run.letters);
  if (listed.size === 0) return null;
  const firstLine = lines.findIndex((line) => line.trim().length > 0);
  return {
    letters,
    rest: lines
      .filter((_, i) => !listed.has(i))
      .join("\n")
      .trim(),
    atStart: listed.has(firstLine),
  };
}

/** A list read as such: the choice comes from the rest of the answer, else there is none. */
function readAfterList(found: LineList, options: Readonly<Record<string, string>>): LetterExtraction {
  const listedReason = `the answer lists ${optionsNamed(found.letters)}, each on its own line with its letter, and chooses none`;
  if (!found.rest) return { letter: null, how: "list", reason: listedReason };
  const rest = extractOptionLetter(found.rest, options);
  if (rest.letter === null && (rest.how === "none" || rest.how === "empty"))
    return { letter: null, how: "list", reason: listedReason };
  return { ...rest, reason: `after listing ${optionsNamed(found.letters)}, ${rest.reason}` };
}

/**
 * A label inside a line: "(B) …", "[B] …", "B) …", "b) …", or a capital's "B. …"/"B: …", followed by text that is not
 * a connective ("(A) and (C) are…" names letters in prose) and not after a word that rules it out.
 */
const INLINE_LABEL =
  /(?<![\p{L}\p{N}])(?:\(\s*([A-Ja-j])\s*\)|\[\s*([A-Ja-j])\s*\]|(?<!\()([A-Ja-j])\)|([A-J])[.:])(?=\s+([^\s]+))/gu;

interface InlineList {
  letters: string[];
  /** Where each label's letter stands, so that a stated answer is not read from a label. */
  indexes: Set<number>;
}

/**
 * Options written out in one line, each after its letter: two or more labels of the same form, their letters in
 * the options' order. The order is what a copied option list has and prose naming letters ("(B) …, not (A)")
 * lacks.
 */
function inlineList(text: string): InlineList | null {
  const byForm = new Map<string, { letter: string; index: number }[]>();
  for (const match of text.matchAll(INLINE_LABEL)) {
    const group = [1, 2, 3, 4].find((g) => match[g] !== undefined)!;
    const next = match[5]!.toLowerCase().replace(/[^\p{L}]/gu, "");
    if (AFTER_LETTER.has(next) || isRuledOut(text, match.index)) continue;
    const form = group === 4 ? match[0].slice(-1) : String(group);
    const letter = match[group]!;
    const labels = byForm.get(form) ?? [];
    labels.push({ letter: letter.toUpperCase(), index: match.index + match[0].indexOf(letter) });
    byForm.set(form, labels);
  }
  for (const labels of byForm.values()) {
    if (labels.length >= 2 && labels.every((label, i) => i === 0 || label.letter > labels[i - 1]!.letter)) {
      return { letters: labels.map((l) => l.letter), indexes: new Set(labels.map((l) => l.index)) };
    }
  }
  return null;
}

/**
 * The one option the answer picks, or none with the reason. `options` maps letters (A–J) to the options'
 * texts; only those letters count.
 */
export function extractOptionLetter(
  rawAnswer: string | null | undefined,
  options: Readonly<Record<string, string>>,
): LetterExtraction {
  const valid = new Set(Object.keys(options));
  options = Object.fromEntries(Object.entries(options).map(([letter, text]) => [letter, text.normalize("NFKC")]));
  const answer = unwrapJson((rawAnswer ?? "").normalize("NFKC")).trim();
  if (!answer) return { letter: null, how: "empty", reason: "the answer is empty" };

  const bare = BARE_LETTER.exec(answer.replace(/[*_`"'“”]/g, "").trim());
  if (bare) {
    const letter = bare[1]!.toUpperCase();
    if (valid.has(letter))
      return { letter: letter as OptionLetter, how: "letter", reason: `the answer is the letter ${letter}` };
    return {
      letter: null,
      how: "none",
      reason: `the answer is the letter ${letter}, which is not one of the options (${list(valid)})`,
    };
  }

  // A list at the start: its first line is one item of it, not an answer with an explanation below.
  const listed = lineList(answer);
  if (listed?.atStart) return readAfterList(listed, options);

  const firstLine = firstLineAnswer(answer, options, valid);
  if (firstLine) return firstLine;

  if (listed) return readAfterList(listed, options);

  const plain = withoutEmphasis(answer);
  const inline = inlineList(plain);
  if (inline) {
    // The list is no choice; an answer stated after it ("(A) … (B) … Answer: B") is.
    const stated = [...plain.matchAll(STATED_ANSWER)]
      .map((m) => ({ letter: m[1]!.toUpperCase(), index: m.index + m[0].length - 1 }))
      .filter((m) => valid.has(m.letter) && !inline.indexes.has(m.index));
    const letters = new Set(stated.map((m) => m.letter));
    if (letters.size === 1) {
      const [letter] = letters as Set<OptionLetter>;
      return {
        letter: letter!,
        how: "letter",
        reason: `the answer lists ${optionsNamed(inline.letters)} in one line and then states the answer ${letter}`,
      };
    }
    return {
      letter: null,
      how: "list",
      reason: `the answer lists ${optionsNamed(inline.letters)} in one line, each after its letter, and chooses none`,
    };
  }

  const quoted = { letters: quotedOptions(answer, options) };
  const mentions = mentionsIn(withoutOptionTexts(answer, options), valid);
  const ruledOut = new Set(mentions.filter((m) => m.ruledOut).map((m) => m.letter));
  const letters = new Set(mentions.filter((m) => !m.ruledOut).map((m) => m.letter));
  if (ruledOut.size > 0) {
    const named = new Set([...letters, ...quoted.letters].filter((l) => !ruledOut.has(l)));
    if (named.size === 0)
      return {
        letter: null,
        how: "ruled_out",
        reason: `the answer rules out ${optionsNamed(ruledOut)} and chooses none`,
      };
    if (named.size === 1)
      return {
        letter: null,
        how: "several",
        reason: `the answer rules out ${optionsNamed(ruledOut)} and names ${list(named)}: prose that weighs several options goes to the judge`,
      };
    return {
      letter: null,
      how: "several",
      reason: `the answer names several options (${list(named)}) and rules out ${optionsNamed(ruledOut)}`,
    };
  }
  if (letters.size > 1)
    return { letter: null, how: "several", reason: `the answer names several options (${list(letters)})` };
  if (letters.size === 1) {
    const [letter] = letters as Set<OptionLetter>;
    if (quoted.letters.size === 0)
      return { letter: letter!, how: "letter", reason: `the answer names option ${letter}` };
    if (quoted.letters.size === 1 && quoted.letters.has(letter!))
      return { letter: letter!, how: "letter_and_text", reason: `the answer names option ${letter} with its text` };
    return {
      letter: null,
      how: "conflict",
      reason: `the answer names option ${letter} but quotes the text of option ${list(quoted.letters)}`,
    };
  }
  if (quoted.letters.size === 1) {
    const [letter] = quoted.letters;
    return { letter: letter!, how: "option_text", reason: `the answer quotes the text of option ${letter}` };
  }
  if (quoted.letters.size > 1)
    return { letter: null, how: "several", reason: `the answer quotes several options (${list(quoted.letters)})` };
  return { letter: null, how: "none", reason: "the answer names no option letter and quotes no option's text" };
}

/**
 * A first line that is only a letter (or a letter with its own option's text), followed by an explanation:
 * the first line is the answer, whatever options the explanation goes on to name, unless the explanation
 * states another answer. Null when the answer is one line or its first line is something else.
 */
function firstLineAnswer(
  answer: string,
  options: Readonly<Record<string, string>>,
  valid: ReadonlySet<string>,
): LetterExtraction | null {
  const lines = answer.split(/\r?\n/);
  const first = lines[0]!.trim();
  const rest = lines.slice(1).join("\n").trim();
  if (!first || !rest) return null;
  const head = extractOptionLetter(first, options);
  if (head.letter === null) return null;
  const onlyTheLetter = BARE_LETTER.test(first.replace(/[*_`"'“”]/g, "").trim());
  if (!onlyTheLetter && head.how !== "letter_and_text") return null;
  const restated = new Set(
    [...rest.matchAll(STATED_ANSWER)].map((m) => m[1]!.toUpperCase()).filter((l) => valid.has(l)),
  );
  restated.delete(head.letter);
  if (restated.size > 0)
    return {
      letter: null,
      how: "conflict",
      reason: `the first line is option ${head.letter} but the explanation states the answer ${list(restated)}`,
    };
  return {
    letter: head.letter,
    how: head.how,
    reason: `the first line is option ${head.letter}; the explanation after it is not read for letters`,
  };
}
