/**
 * TEST TOOL. The stub LLM's rules for the caption judges' prompts (prompts/caption-rubric, prompts/caption-content):
 * the rubric scores a caption 3 within ±10% of the reference's length and 2 outside it; the key-point check
 * finds a key point covered when it shares a content word with the caption.
 */
import type { StubRule } from "../../../testkit/llm-stub/stub-rule";
import { countWords } from "./count-words";
import { withinReferenceLength } from "./length-rules";

export const CAPTION_RULES: StubRule[] = [
  {
    name: "caption-rubric",
    match: /assign a score between 0 and 4 to "Model Output"/i,
    respond: (context) => {
      const input = captionRubricInput(context.text);
      if (!input)
        return JSON.stringify({ score: context.pick(5, "c"), reason: "Simulated judgment from the stub LLM." });
      // 3 within ±10% of the reference's length, else 2: a brief or detail caption outside it gets a score above
      // the rule's cap of 1 on purpose, so the tests and the demo show captions where the judge broke the rule.
      const [outputWords, referenceWords] = [countWords(input.output), countWords(input.reference)];
      const within = referenceWords > 0 && withinReferenceLength(outputWords, referenceWords);
      return JSON.stringify({
        score: within ? 3 : 2,
        reason: `Simulated judgment from the stub LLM: the output has ${outputWords} words, the reference ${referenceWords}.`,
      });
    },
  },
  {
    name: "caption-content",
    match: /Decide, for each key point separately, whether the caption covers it/i,
    respond: (context) => {
      const input = captionContentInput(context.text);
      if (!input) return JSON.stringify({ key_points: [], total: 0 });
      const outputWords = contentWords(input.output);
      const key_points = input.keyPoints.map((keyPoint) => {
        const shared = [...contentWords(keyPoint)].find((word) => outputWords.has(word));
        return {
          key_point: keyPoint,
          score: shared ? 1 : 0,
          reason: shared
            ? `Simulated: the caption mentions "${shared}".`
            : "Simulated: the caption shares no content word with this key point.",
        };
      });
      return JSON.stringify({ key_points, total: key_points.reduce((sum, entry) => sum + entry.score, 0) });
    },
  },
];

/** The caption and reference of a rendered caption rubric prompt (prompts/caption-rubric/judge.md), or null. */
function captionRubricInput(text: string): { output: string; reference: string } | null {
  const start = text.indexOf("\nModel Output: ", text.indexOf("### **Input:**"));
  const end = text.lastIndexOf("\n### **Output:**");
  const referenceAt = text.lastIndexOf("\nReference: ", end);
  if (start < 0 || end < 0 || referenceAt < start) return null;
  return {
    output: text.slice(start + "\nModel Output: ".length, referenceAt),
    reference: text.slice(referenceAt + "\nReference: ".length, end),
  };
}

/** The key points and caption of a rendered key-point check prompt (prompts/caption-content/judge.md), or null. */
function captionContentInput(text: string): { keyPoints: string[]; output: string } | null {
  const listAt = text.indexOf("\nKey points:\n");
  const captionAt = text.indexOf("\nCaption to check:\n", listAt);
  const end = text.lastIndexOf("\n\n### Output");
  if (listAt < 0 || captionAt < 0 || end < captionAt) return null;
  const keyPoints = text
    .slice(listAt + "\nKey points:\n".length, captionAt)
    .split("\n")
    .map((line) => /^\d+\. (.*)$/.exec(line)?.[1])
    .filter((keyPoint): keyPoint is string => keyPoint !== undefined);
  return { keyPoints, output: text.slice(captionAt + "\nCaption to check:\n".length, end) };
}

const STOP_WORDS = new Set([
  "the",
  "and",
  "with",
  "from",
  "that",
  "this",
  "their",
  "there",
  "into",
  "onto",
  "while",
  "mention",
  "describe",
  "note",
  "video",
  "person",
  "people",
]);

/** Lower-case words of four or more letters that carry content. */
function contentWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((word) => !STOP_WORDS.has(word)));
}
