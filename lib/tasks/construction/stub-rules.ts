/**
 * TEST TOOL. The stub LLM's rules for seed 004's construction prompts (prompts/construction, and the QA
 * templates of Tables 24 and 28 that construction reuses). Every answer follows from the prompt's text (and,
 * for Table 30, from how often the same prompt was asked before), so tests and the demo work out what a
 * construction run does from these rules alone.
 *
 * Generation (Tables 4–8, 20–22, 10). The clip's top-level steps are read from the prompt's clip info
 * ("        - 12s ∼ 20s : text"). The coarse-grained templates (their system message does not mention
 * "detailed objects") get up to three pairs "What happens after <step i>?" → "<step i+1>"; the fine-grained
 * ones up to three pairs "What happens just before <step i+1>?" → "<step i>" (i = 0, 1, 2 while a next step
 * exists). A question whose step (the one the question names) contains "obvious" gives its answer away:
 * "What happens after <step i>, is it <step i+1>?" (and "…just before <step i+1>, is it <step i>?").
 *
 * Marker words in the QUESTION decide the rest (whole words, any case):
 * - Table 23 (categorise): "What happens after" → "Future Step Prediction", "just before" → "Past Step
 *   Recall", else "Others(Simulated)". "garbled": the first answer is cut-off JSON; the engine's repair
 *   request (which carries that answer) gets valid JSON.
 * - Table 24 (answer without the video), "obvious": the answer restates the question's words, so Table 28
 *   finds it consistent with the reference and the blind filter removes the question. Other questions get
 *   the QA rule (qa-stub-rules.ts: restates the question or "I cannot tell without the video."), which
 *   shares no reference words when the steps share none, so they are kept.
 * - Table 25 (hallucination): "Yes" when the question contains "unicorn", else "No".
 * - Table 26 (answer from the annotations): the step after (or just before) the step the question names, word
 *   for word; "tricky": "The annotations do not say." — inconsistent, so the tricky filter removes it.
 * - Table 27 (unspecific answer): "Yes" when the question contains "vague", else "No".
 * - Table 28 (consistency): the QA rule — "Yes" when the answer shares at least half the reference's words.
 * - Table 29 (six wrong answers): the reference answer with six twists, "<answer> — only halfway", "… — twice
 *   over", "… — in reverse", "… — far too early", "… — with the wrong tool", "… — much later": distinct.
 * - Table 30 (pick four): the first four of the six; "twin": the first time a prompt is asked, the second
 *   repeats the first (a duplicate, so the attempt is retried; the retry is the prompt's second asking).
 * - Table 31 (best option without the video), when the options carry those twists: the first twisted option
 *   (never the correct one), wherever the shuffle put the options. A model whose NAME contains the word
 *   "knowing" picks the untwisted option instead (the correct one): a checker that can rule the distractors
 *   out, so tests can build a panel of checkers that disagree (the majority rule of Appendix D).
 * - Table 32 (best option with the video): the option that is a step of the clip info word for word (the
 *   correct one); "stubborn": the first twisted option, every time, so the question never transforms and the
 *   ten-attempt limit shows.
 */
import type { StubRequestContext, StubRule } from "../../../testkit/llm-stub/stub-rule";

export const DISTRACTOR_TWISTS = [
  "only halfway",
  "twice over",
  "in reverse",
  "far too early",
  "with the wrong tool",
  "much later",
] as const;

const STEP_LINE = /^ {8}- \d+(?:\.\d+)?s ∼ \d+(?:\.\d+)?s ?: (.+)$/gm;

/** The top-level step texts of a rendered clip info, in order. */
export function clipSteps(text: string): string[] {
  return [...text.matchAll(STEP_LINE)].map((match) => match[1]!.trim());
}

export const hasMarker = (text: string, marker: string) => new RegExp(`\\b${marker}\\b`, "i").test(text);

const trimEnd = (text: string) => text.replace(/[\s.]+$/, "");

/** The pairs the stub generates from a clip's steps. */
export function stubGeneratedPairs(
  steps: readonly string[],
  granularity: "coarse" | "fine",
): { Question: string; Answer: string; Reason: string }[] {
  const pairs = [];
  for (let i = 0; i + 1 < steps.length && i < 3; i++) {
    const [named, answer] = granularity === "coarse" ? [steps[i]!, steps[i + 1]!] : [steps[i + 1]!, steps[i]!];
    const asks =
      granularity === "coarse" ? `What happens after ${trimEnd(named)}` : `What happens just before ${trimEnd(named)}`;
    const question = hasMarker(named, "obvious") ? `${asks}, is it ${trimEnd(answer)}?` : `${asks}?`;
    pairs.push({
      Question: question,
      Answer: answer,
      Reason: `Simulated: ${granularity === "coarse" ? "the step that follows" : "the step just before"} in the clip info.`,
    });
  }
  return pairs;
}

/** "   - Question: …" as seed 004's tables write it, up to the line's end. */
const field = (text: string, name: string) => new RegExp(`^ {3}- ${name}: (.*)$`, "m").exec(text)?.[1]?.trim() ?? "";

/** The step a stub question names, and whether it asks for the one after it. */
function namedStep(question: string): { step: string; after: boolean } | null {
  const match = /^What happens (after|just before) (.+?)(?:, is it .*)?\?$/.exec(question);
  return match ? { step: match[2]!, after: match[1] === "after" } : null;
}

/** The option lines of a prompt: "      A. text". */
function optionsIn(text: string): [string, string][] {
  return [...text.matchAll(/^ {6}([A-E])\. (.*)$/gm)].map((m) => [m[1]!, m[2]!]);
}

const twisted = (option: string) => DISTRACTOR_TWISTS.some((twist) => option.endsWith(` — ${twist}`));

const best = (letter: string, text: string, reason: string) =>
  JSON.stringify({ Best_option: `${letter}. ${text}`, Reason: `Simulated: ${reason}` });

export const CONSTRUCTION_RULES: StubRule[] = [
  {
    name: "construction-generate",
    match: /question-answer pairs/,
    respond: (context) => {
      const fine = /detailed objects/i.test(context.text.split("\n")[0] ?? "");
      return JSON.stringify(stubGeneratedPairs(clipSteps(context.text), fine ? "fine" : "coarse"));
    },
  },
  {
    name: "construction-categorise",
    match: /classify questions based on the type of video understanding task/,
    respond: (context) => {
      const question = field(context.text, "Question");
      const type = question.startsWith("What happens after")
        ? "Future Step Prediction"
        : question.includes("just before")
          ? "Past Step Recall"
          : "Others(Simulated)";
      const cutOff = `{"Question_type": "${type}", "Reason": "Simulated: cut off`;
      // The repair request carries the first answer: it gets the whole JSON.
      if (hasMarker(question, "garbled") && !context.text.includes(cutOff)) return cutOff;
      return JSON.stringify({ Question_type: type, Reason: "Simulated: from the question's wording." });
    },
  },
  {
    name: "construction-blind-obvious",
    match: /^## Input:\n {3}- Question: [^\n]*\bobvious\b[^\n]*\n## Output:$/i,
    respond: (context) => `From the question alone: ${field(context.text, "Question").replace(/[?]$/, "")}.`,
  },
  {
    name: "construction-hallucination",
    match: /Please help me identify any poorly-designed video questions/,
    respond: (context) => {
      const yes = hasMarker(field(context.text, "Question"), "unicorn");
      return JSON.stringify({
        Judgement: yes ? "Yes" : "No",
        Reason: yes
          ? "Simulated: the clip info says nothing of a unicorn."
          : "Simulated: the question is about the clip info.",
      });
    },
  },
  {
    name: "construction-answer-with-annotations",
    match: /answer video questions based on the provided text video info/,
    respond: (context) => {
      const question = field(context.text, "Question");
      const steps = clipSteps(context.text);
      const named = namedStep(question);
      const at = named ? steps.findIndex((step) => trimEnd(step) === named.step) : -1;
      const answer = at < 0 || hasMarker(question, "tricky") ? undefined : steps[named!.after ? at + 1 : at - 1];
      return JSON.stringify(
        answer
          ? { Answer: answer, Reason: "Simulated: the neighbouring step in the clip info." }
          : { Answer: "The annotations do not say.", Reason: "Simulated: no step fits." },
      );
    },
  },
  {
    name: "construction-unspecific",
    match: /identify vague, ambiguous, and incomplete answers/,
    respond: (context) => {
      const yes = hasMarker(field(context.text, "Question"), "vague");
      return JSON.stringify({
        Judgement: yes ? "Yes" : "No",
        Reason: yes ? "Simulated: the answer is too vague." : "Simulated: the answer is specific and complete.",
      });
    },
  },
  {
    name: "construction-six-wrong",
    match: /Generate six additional incorrect answer choices/,
    respond: (context) => {
      const answer = trimEnd(field(context.text, "Answer"));
      return JSON.stringify(
        Object.fromEntries(DISTRACTOR_TWISTS.map((twist, i) => [`Wrong_answer${i + 1}`, `${answer} — ${twist}`])),
      );
    },
  },
  {
    name: "construction-pick-four",
    match: /select the four most appropriate wrong answers/,
    respond: (context: StubRequestContext) => {
      const listed = /Wrong_answer_list:\n([\s\S]*?)\n## Output:/.exec(context.text)?.[1] ?? "";
      const six = [...listed.matchAll(/^ {6}- Wrong_answer: (.*)$/gm)].map((m) => m[1]!.trim());
      const four = six.slice(0, 4);
      if (hasMarker(field(context.text, "Question"), "twin") && context.seen === 0 && four.length > 1)
        four[1] = four[0]!;
      return JSON.stringify(Object.fromEntries(four.map((answer, i) => [`Wrong_answer${i + 1}`, answer])));
    },
  },
  {
    name: "construction-best-without-video",
    match:
      /without the aid of video content[\s\S]*^ {6}[A-E]\. .* — (?:only halfway|twice over|in reverse|far too early|with the wrong tool|much later)$/m,
    respond: (context) => {
      const knowing = hasMarker(context.model, "knowing");
      const [letter, text] = optionsIn(context.text).find(([, option]) => twisted(option) !== knowing) ?? ["A", ""];
      return best(
        letter,
        text,
        knowing
          ? "without the video, the only option without a twist."
          : "without the video, the first option that sounds plausible.",
      );
    },
  },
  {
    name: "construction-best-with-video",
    match: /choose the best option that accurately answers a question based on the corresponding video information/,
    respond: (context) => {
      const options = optionsIn(context.text);
      const steps = new Set(clipSteps(context.text).map(trimEnd));
      const stubborn = hasMarker(field(context.text, "Question"), "stubborn");
      const [letter, text] = (stubborn
        ? options.find(([, option]) => twisted(option))
        : options.find(([, option]) => steps.has(trimEnd(option)))) ??
        options[0] ?? ["A", ""];
      return best(letter, text, stubborn ? "a distractor looked right." : "the option the clip info states.");
    },
  },
];
