import { createHash } from "node:crypto";
import { SIM_FIX_SENTENCE } from "../../../testkit/llm-stub/alignment-stub-rule";
import type { StubRequestContext, StubRule } from "../../../testkit/llm-stub/stub-rule";
import { TEMPLATE_EXAMPLES_END, TEMPLATE_EXAMPLES_HEADER } from "../../prompt-versions/template-examples";
import { DYNAMIC_CATEGORY_IDS, STATIC_CATEGORY_IDS } from "./schemas";

/**
 * TEST TOOL. The stub LLM's rules for the hallucination pipeline's prompts (prompts/hallucination): knowledge
 * graphs, a summary, the inconsistency check and the category scores, simulated from a hash of the prompt
 * and images.
 */

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

/**
 * TEST TOOL. A simulated inconsistency judge with a planted prompt bias, for aligning a built-in judge (issue 26
 * items 4 and 5): a video whose prompt carries `[sim-truth=N]` has the true inconsistency N (0–10). Unless the
 * template contains SIM_FIX_SENTENCE, the judge answers N + 6 (clamped) on a video whose prompt carries
 * `[sim-artefacts]` and N elsewhere, so no threshold can undo it; with the sentence, N with noise (±1 in two calls
 * of five, from a hash of the text). The alignment optimizer's stub adds the sentence when the judge is mostly above
 * the labels on the disagreements shown.
 *
 * Few-shot examples (the block after TEMPLATE_EXAMPLES_HEADER, each example's prompt with its own tags and the
 * person's value): shown a `[sim-artefacts]` example whose value is well below what the biased judge gives it (its
 * truth + 6), the judge stops over-scoring artefacts and answers N with the fixed judge's noise; examples without
 * artefacts change nothing. The video's own truth and artefacts are read outside the examples' block.
 */
export const SIM_INCONSISTENCY_RULE: StubRule = {
  name: "alignment-inconsistency-judge",
  match:
    /\[sim-truth=\d+\][\s\S]*compare the inconsistency in the two descriptions|compare the inconsistency in the two descriptions[\s\S]*\[sim-truth=\d+\]/i,
  respond: (context) => {
    const start = context.text.indexOf(TEMPLATE_EXAMPLES_HEADER);
    const end = start < 0 ? -1 : context.text.indexOf(TEMPLATE_EXAMPLES_END, start);
    const block = start < 0 ? "" : context.text.slice(start, end < 0 ? undefined : end);
    const own = start < 0 ? context.text : context.text.slice(0, start) + (end < 0 ? "" : context.text.slice(end));
    const truth = Number(/\[sim-truth=(\d+)\]/.exec(own)![1]);
    const examples = [
      ...block.matchAll(/^Example \d+ \(\d+ frames?\): prompt (".*"); the person's value of .*: (-?[\d.]+)$/gm),
    ].map((m) => {
      const prompt = JSON.parse(m[1]!) as string;
      return {
        truth: Number(/\[sim-truth=(\d+)\]/.exec(prompt)?.[1] ?? NaN),
        artefacts: prompt.includes("[sim-artefacts]"),
        label: Number(m[2]),
      };
    });
    const taught = examples.some(
      (e) => e.artefacts && Number.isFinite(e.truth) && Math.min(10, e.truth + 6) - e.label >= 3,
    );
    const fixed = own.includes(SIM_FIX_SENTENCE) || taught;
    const noise = [-1, -1, 1, 1, 0, 0, 0, 0, 0, 0][
      createHash("sha256").update(context.text).digest().readUInt32BE(0) % 10
    ]!;
    const value = fixed ? truth + noise : own.includes("[sim-artefacts]") ? truth + 6 : truth;
    const score = Math.min(10, Math.max(0, value));
    return JSON.stringify({
      score,
      reason: fixed ? "Judged the described content." : "Blocky compression makes the video depart from its prompt.",
    });
  },
};

const SIM_VERDICT = /\[sim-verdict=([01])\]/;
const simNoise = (context: StubRequestContext) =>
  createHash("sha256").update(context.text).digest().readUInt32BE(0) % 2;

/**
 * TEST TOOL. A simulated hallucination judge for aligning the verdict, a reviewed metric (issue 26 items 4 and 5): a
 * video whose prompt carries `[sim-verdict=1]` hallucinates (its key frames score 8–9 in s3), `[sim-verdict=0]` does
 * not (every category 0–1). Unless the static-hallucination template contains SIM_FIX_SENTENCE, a video tagged
 * `[sim-inflate]` has every static category raised by 5 (to 5–6): the shipped verdict (the worst score at 5 or more)
 * calls it a hallucination, and a verdict threshold of 7, or the template with the sentence, undoes that. Its
 * inconsistency and dynamic categories are 0, so the static scores decide the verdict.
 */
export const SIM_VERDICT_RULES: StubRule[] = [
  {
    name: "alignment-verdict-static",
    match:
      /\[sim-verdict=[01]\][\s\S]*definition of all types of static hallucinations|definition of all types of static hallucinations[\s\S]*\[sim-verdict=[01]\]/i,
    respond: (context) => {
      const hallucinates = SIM_VERDICT.exec(context.text)![1] === "1";
      const inflate = context.text.includes("[sim-inflate]") && !context.text.includes(SIM_FIX_SENTENCE) ? 5 : 0;
      const noise = simNoise(context);
      const scores = Object.fromEntries(
        STATIC_CATEGORIES.map((c) => [c, c === "s3" && hallucinates ? 8 + noise : Math.min(10, noise + inflate)]),
      );
      return JSON.stringify({
        scores,
        reason: inflate ? "Blocky compression counts as a defect in every category." : "Judged the visible content.",
      });
    },
  },
  {
    name: "alignment-verdict-dynamic",
    match:
      /\[sim-verdict=[01]\][\s\S]*definition of all type of dynamic hallucinations|definition of all type of dynamic hallucinations[\s\S]*\[sim-verdict=[01]\]/i,
    respond: () =>
      JSON.stringify({
        scores: Object.fromEntries(DYNAMIC_CATEGORIES.map((c) => [c, 0])),
        reason: "Nothing moves wrongly.",
      }),
  },
  {
    name: "alignment-verdict-inconsistency",
    match:
      /\[sim-verdict=[01]\][\s\S]*compare the inconsistency in the two descriptions|compare the inconsistency in the two descriptions[\s\S]*\[sim-verdict=[01]\]/i,
    respond: () => JSON.stringify({ score: 0, reason: "The video shows what the prompt asks." }),
  },
];

export const HALLUCINATION_RULES: StubRule[] = [
  SIM_INCONSISTENCY_RULE,
  ...SIM_VERDICT_RULES,
  {
    name: "static-knowledge-graph",
    match: /Identify objects in the foreground of the frame/i,
    respond: (context) => {
      const count = 2 + context.pick(3, "n");
      const objects = Array.from(
        { length: count },
        (_, i) => OBJECTS[(context.pick(OBJECTS.length, "o") + i * 3) % OBJECTS.length]!,
      );
      const relations = objects
        .slice(1)
        .map((object, i) => [objects[0]!, RELATIONS[context.pick(RELATIONS.length, `r${i}`)]!, object]);
      return JSON.stringify({ objects, relations });
    },
  },
  {
    name: "dynamic-knowledge-graph",
    match: /Identify the changes or consistencies of the identified input/i,
    respond: (context) => {
      const moves = [
        "moves slowly to the left",
        "unchanged",
        "turns around",
        "moves closer to the camera",
        "unchanged",
      ];
      const changes = Object.fromEntries(
        OBJECTS.slice(0, 2 + context.pick(3, "n")).map((object, i) => [
          object,
          moves[context.pick(moves.length, `m${i}`)]!,
        ]),
      );
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
    respond: (context) =>
      JSON.stringify({ score: context.pick(11, "i"), reason: "Simulated judgment from the stub LLM." }),
  },
  {
    name: "static-hallucination",
    match: /definition of all types of static hallucinations/i,
    respond: (context) =>
      JSON.stringify({ scores: scores(context, STATIC_CATEGORIES), reason: "Simulated judgment from the stub LLM." }),
  },
  {
    name: "dynamic-hallucination",
    match: /definition of all type of dynamic hallucinations/i,
    respond: (context) =>
      JSON.stringify({ scores: scores(context, DYNAMIC_CATEGORIES), reason: "Simulated judgment from the stub LLM." }),
  },
];
