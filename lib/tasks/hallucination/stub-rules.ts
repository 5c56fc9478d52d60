import { createHash } from "node:crypto";
import { countWords } from "../tasks/captions/count-words";
import { withinReferenceLength } from "../tasks/captions/length-rules";
import { DYNAMIC_CATEGORY_IDS, STATIC_CATEGORY_IDS } from "../tasks/hallucination/schemas";
import { CONSTRUCTION_RULES } from "../tasks/construction/stub-rules";
import { ENDPOINT_TEST_RULE } from "./endpoint-test-stub-rule";
import { QA_RULES } from "../tasks/qa/stub-rules";

/**
 * TEST TOOL. Rules of the stand-in LLM: which canned answer a prompt gets. Answers are derived
 * from a hash of the prompt and images, so they are stable across runs yet differ between videos.
 */
export interface StubRequestContext {
  /** All text parts of all messages, joined by newlines. */
  text: string;
  /** Number of image parts in the request. */
  imageCount: number;
  /** Stable pseudo-random integer in [0, n) for this request and a salt. */
  pick(n: number, salt?: string): number;
  /** True when the request asked for JSON (json_schema or json_object response_format). */
  wantsJson: boolean;
  /** The request's model name: simulated models differ by it (the QA rules read it; other rules ignore it). */
  model: string;
  /**
   * How many times this server answered the same model and text before (0 the first time): a real model
   * asked again answers anew, and the construction rules simulate that (lib/tasks/construction/stub-rules.ts).
   */
  seen: number;
  /** The request's image URLs (data: URLs as sent), for rules that read an image (the endpoint test's colour). */
  imageUrls: string[];
}

export interface StubRule {
  name: string;
  match: RegExp;
  respond(context: StubRequestContext): string;
}

/** The category ids the stub scores; the same keys the hallucination pipeline's prompts ask for. */
export const STATIC_CATEGORIES: readonly string[] = STATIC_CATEGORY_IDS;
export const DYNAMIC_CATEGORIES: readonly string[] = DYNAMIC_CATEGORY_IDS;

const OBJECTS = ["person_1", "person_2", "dog", "car", "tree", "ball", "cup", "table", "bicycle", "bird"];
const RELATIONS = ["next to", "holding", "behind", "on", "in front of", "looking at"];

function scores(context: StubRequestContext, categories: readonly string[]): Record<string, number> {
  // Mostly low scores with an occasional strong one, like a real judge on decent clips.
  return Object.fromEntries(
    categories.map((category) => {
      const roll = context.pick(100, category);
      return [category, roll < 70 ? roll % 3 : roll < 92 ? 3 + (roll % 4) : 7 + (roll % 4)];
    }),
  );
}

export const DEFAULT_RULES: StubRule[] = [
  {
    name: "static-knowledge-graph",
    match: /Identify objects in the foreground of the frame/i,
    respond: (context) => {
      const count = 2 + context.pick(3, "n");
      const objects = Array.from({ length: count }, (_, i) => OBJECTS[(context.pick(OBJECTS.length, "o") + i * 3) % OBJECTS.length]!);
      const relations = objects.slice(1).map((object, i) => [objects[0]!, RELATIONS[context.pick(RELATIONS.length, `r${i}`)]!, object]);
      return JSON.stringify({ objects, relations });
    },
  },
  {
    name: "dynamic-knowledge-graph",
    match: /Identify the changes or consistencies of the identified input/i,
    respond: (context) => {
      const moves = ["moves slowly to the left", "unchanged", "turns around", "moves closer to the camera", "unchanged"];
      const changes = Object.fromEntries(OBJECTS.slice(0, 2 + context.pick(3, "n")).map((object, i) => [object, moves[context.pick(moves.length, `m${i}`)]!]));
      return JSON.stringify({ changes });
    },
  },
  {
    name: "video-summary",
    match: /generate a brief and accurate description for the video/i,
    respond: (context) => {
      const text = `A short clip in which ${OBJECTS[context.pick(OBJECTS.length, "a")]} and ${OBJECTS[context.pick(OBJECTS.length, "b")]} appear; the camera stays mostly still.`;
      // The template asks for JSON whether or not the request sets response_format.
      return JSON.stringify({ summary: text });
    },
  },
  {
    name: "inconsistency-check",
    match: /compare the inconsistency in the two descriptions/i,
    respond: (context) => JSON.stringify({ score: context.pick(11, "i"), reason: "Simulated judgment from the stub LLM." }),
  },
  {
    name: "static-hallucination",
    match: /definition of all types of static hallucinations/i,
    respond: (context) => JSON.stringify({ scores: scores(context, STATIC_CATEGORIES), reason: "Simulated judgment from the stub LLM." }),
  },
  {
    name: "dynamic-hallucination",
    match: /definition of all type of dynamic hallucinations/i,
    respond: (context) => JSON.stringify({ scores: scores(context, DYNAMIC_CATEGORIES), reason: "Simulated judgment from the stub LLM." }),
  },
  {
    name: "caption-rubric",
    match: /assign a score between 0 and 4 to "Model Output"/i,
    respond: (context) => {
      const input = captionRubricInput(context.text);
      if (!input) return JSON.stringify({ score: context.pick(5, "c"), reason: "Simulated judgment from the stub LLM." });
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
          reason: shared ? `Simulated: the caption mentions "${shared}".` : "Simulated: the caption shares no content word with this key point.",
        };
      });
      return JSON.stringify({ key_points, total: key_points.reduce((sum, entry) => sum + entry.score, 0) });
    },
  },
  // Before the QA rules: seed 004's blind prompts (Tables 24 and 31) are the QA baseline's too, and the
  // construction rules answer only the construction runs' forms of them.
  ...CONSTRUCTION_RULES,
  ...QA_RULES,
  ENDPOINT_TEST_RULE,
];

/** The caption and reference of a rendered caption rubric prompt (prompts/caption-rubric/judge.md), or null. */
function captionRubricInput(text: string): { output: string; reference: string } | null {
  const start = text.indexOf("\nModel Output: ", text.indexOf("### **Input:**"));
  const end = text.lastIndexOf("\n### **Output:**");
  const referenceAt = text.lastIndexOf("\nReference: ", end);
  if (start < 0 || end < 0 || referenceAt < start) return null;
  return { output: text.slice(start + "\nModel Output: ".length, referenceAt), reference: text.slice(referenceAt + "\nReference: ".length, end) };
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

const STOP_WORDS = new Set(["the", "and", "with", "from", "that", "this", "their", "there", "into", "onto", "while", "mention", "describe", "note", "video", "person", "people"]);

/** Lower-case words of four or more letters that carry content. */
function contentWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((word) => !STOP_WORDS.has(word)));
}

export const FALLBACK_RULE: StubRule = {
  name: "fallback",
  match: /[\s\S]*/,
  respond: (context) => (context.wantsJson ? JSON.stringify({ answer: "stub" }) : "This is the FrameJury stub LLM. No rule matched the prompt."),
};

export function makeContext(text: string, imageKeys: string[], wantsJson: boolean, model = "", seen = 0, imageUrls: string[] = []): StubRequestContext {
  const seed = createHash("sha256").update(text).update(imageKeys.join("|")).digest("hex");
  return {
    text,
    imageCount: imageKeys.length,
    wantsJson,
    model,
    seen,
    imageUrls,
    pick(n, salt = "") {
      const digest = createHash("sha256").update(seed).update(salt).digest();
      return digest.readUInt32BE(0) % n;
    },
  };
}
