/**
 * TEST TOOL. The stub LLM's rules for seed 004's QA prompts (prompts/qa): the evaluated model's answers
 * and the judge's decisions, simulated and deterministic per prompt, frames and model name.
 *
 * - Multiple choice with frames: the stub "sees" and picks the option sharing the most words (three or more
 *   letters, not stop words) with the question, the first on a tie; a model whose name contains "guess"
 *   picks a letter by hash instead. The letter comes bare or wrapped in prose: "B", "(B)", "B.", "The answer
 *   is B.", or "B. <the option's text>"; a guessing model now and then hedges, "It is either B or C.", which
 *   names two letters and so goes to the judge.
 * - Open questions with frames: an answer restating the question's words (a guessing model half the time,
 *   else "I am not sure what happens.").
 * - Without frames (seed 004's blind prompts): a letter by hash, as {"Best_option", "Reason"}; an open answer
 *   restating the question half the time.
 * - The option-consistency judge says "Yes" when the student's answer names the correct option alone (read
 *   as FrameJury reads letters); the answer-consistency judge when the answer shares at least half of the
 *   reference answer's words.
 */
import { extractOptionLetter } from "./extract-letter";
import type { StubRequestContext, StubRule } from "../../../testkit/llm-stub/stub-rule";

const STOP_WORDS = new Set([
  "the",
  "and",
  "with",
  "from",
  "that",
  "this",
  "what",
  "which",
  "where",
  "when",
  "who",
  "whom",
  "why",
  "how",
  "does",
  "did",
  "was",
  "were",
  "are",
  "for",
  "its",
  "into",
  "onto",
  "after",
  "before",
  "then",
  "video",
  "frames",
]);

/** Lower-case words of three or more letters that carry content. */
export function qaWords(text: string): string[] {
  return [...new Set((text.toLowerCase().match(/\p{L}{3,}/gu) ?? []).filter((word) => !STOP_WORDS.has(word)))];
}

const shared = (a: string, b: string) => {
  const words = new Set(qaWords(b));
  return qaWords(a).filter((word) => words.has(word)).length;
};

const guesses = (context: StubRequestContext) => /guess/i.test(context.model) || context.imageCount === 0;

/** The option lines of a prompt section: "A. text" (or indented, as seed 004's tables write them). */
function optionsIn(section: string): Record<string, string> {
  const options: Record<string, string> = {};
  for (const match of section.matchAll(/^ *([A-J])\. (.*)$/gm)) options[match[1]!] = match[2]!;
  return options;
}

function bestByWords(question: string, options: Record<string, string>): string {
  let best = Object.keys(options)[0]!;
  let bestCount = -1;
  for (const [letter, text] of Object.entries(options)) {
    const count = shared(text, question);
    if (count > bestCount) [best, bestCount] = [letter, count];
  }
  return best;
}

const guessLetter = (context: StubRequestContext, options: Record<string, string>, salt: string) => {
  const letters = Object.keys(options);
  return letters[context.pick(letters.length, `${salt}:${context.model}`)]!;
};

function wrapLetter(context: StubRequestContext, letter: string, options: Record<string, string>): string {
  const letters = Object.keys(options);
  if (/guess/i.test(context.model) && context.pick(6, `hedge:${context.model}`) === 0 && letters.length > 1) {
    const other = letters.find((l) => l !== letter)!;
    return `It is either ${[letter, other].sort().join(" or ")}.`;
  }
  switch (context.pick(5, `wrap:${context.model}`)) {
    case 0:
      return letter;
    case 1:
      return `(${letter})`;
    case 2:
      return `${letter}.`;
    case 3:
      return `The answer is ${letter}.`;
    default:
      return `${letter}. ${options[letter]}`;
  }
}

const restate = (question: string) => `From the frames: ${qaWords(question).join(" ")}.`;

/** "   - Question: …" as seed 004's tables write it, up to the next list item or heading. */
const listedField = (text: string, name: string) =>
  new RegExp(` {3}- ${name}: ([\\s\\S]*?)\\n(?: {3}- |## )`).exec(text)?.[1] ?? "";

export const QA_RULES: StubRule[] = [
  {
    name: "qa-answer-mc",
    match: /Answer with the option’s letter from the given choices directly\.$/,
    respond: (context) => {
      const question = /\nQuestion:([\s\S]*?)\nOptions:/.exec(context.text)?.[1] ?? "";
      const options = optionsIn(/\nOptions:([\s\S]*)\nAnswer with the option’s letter/.exec(context.text)?.[1] ?? "");
      if (Object.keys(options).length === 0) return "A";
      const letter = guesses(context) ? guessLetter(context, options, "mc") : bestByWords(question, options);
      return wrapLetter(context, letter, options);
    },
  },
  {
    name: "qa-answer-open",
    match: /answer the subsequent questions accurately\.\nGiven Frames:<Video>\nQuestion:(?![\s\S]*\nOptions:)/,
    respond: (context) => {
      const question = /\nQuestion:([\s\S]*)$/.exec(context.text)?.[1] ?? "";
      if (guesses(context) && context.pick(2, `open:${context.model}`) === 1) return "I am not sure what happens.";
      return restate(question);
    },
  },
  {
    name: "qa-text-only-mc",
    match: /choose the best option that accurately answers a question, without the aid of video content/,
    respond: (context) => {
      const options = optionsIn(/ {3}- Options:\n([\s\S]*?)\n## Output:/.exec(context.text)?.[1] ?? "");
      if (Object.keys(options).length === 0)
        return JSON.stringify({ Best_option: "A", Reason: "Simulated: no options were listed." });
      const letter = guessLetter(context, options, "blind");
      return JSON.stringify({
        Best_option: `${letter}. ${options[letter]}`,
        Reason: "Simulated: chosen from the question and options alone, without the video.",
      });
    },
  },
  {
    name: "qa-text-only-open",
    match: /^## Input:\n {3}- Question: [\s\S]*\n## Output:$/,
    respond: (context) => {
      const question = /- Question: ([\s\S]*)\n## Output:$/.exec(context.text)?.[1] ?? "";
      return context.pick(2, `blind-open:${context.model}`) === 0
        ? restate(question)
        : "I cannot tell without the video.";
    },
  },
  {
    name: "qa-judge-option",
    match: /evaluating whether a student has correctly answered a question based solely on the provided options/,
    respond: (context) => {
      const options = optionsIn(/ {3}- Options:\n([\s\S]*?)\n {3}- Correct Answer:/.exec(context.text)?.[1] ?? "");
      const correct = /\n {3}- Correct Answer: ([A-J])\./.exec(context.text)?.[1] ?? "";
      const student = /\n {3}- Student’s Answer: ([\s\S]*?)\n## Output:/.exec(context.text)?.[1] ?? "";
      const read = extractOptionLetter(student, options);
      const right = read.letter !== null && read.letter === correct;
      return JSON.stringify({
        Judgement: right ? "Yes" : "No",
        Reason: right
          ? `Simulated: the student chose ${correct}, the correct option.`
          : `Simulated: ${read.reason}; the correct option is ${correct}.`,
      });
    },
  },
  {
    name: "qa-judge-open",
    match: /carefully check whether the student’s answer is right/,
    respond: (context) => {
      const reference = listedField(context.text, "Correct Answer");
      const student = /\n {3}- Student’s Answer: ([\s\S]*?)\n## Output:/.exec(context.text)?.[1] ?? "";
      const needed = Math.max(1, Math.ceil(qaWords(reference).length / 2));
      const overlap = shared(student, reference);
      return JSON.stringify({
        Judgement: overlap >= needed ? "Yes" : "No",
        Reason: `Simulated: the answer shares ${overlap} of the reference answer's ${qaWords(reference).length} words (${needed} needed).`,
      });
    },
  },
];
