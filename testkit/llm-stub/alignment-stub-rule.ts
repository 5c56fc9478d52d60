import { createHash } from "node:crypto";
import { RUBRIC_EXAMPLES_END, RUBRIC_EXAMPLES_MARKER } from "../../lib/rubrics/rubric-prompt";
import type { StubRule } from "./stub-rule";

/**
 * TEST TOOL. A simulated judge with a planted rubric bias, and a simulated optimizer that can fix it (issue 26
 * item 5's alignment claim). A video whose prompt carries `[sim-truth=N]` has the true value N on a numeric rubric
 * criterion. The judge answers every criterion N + 2 (clamped to the scale) unless the prompt contains
 * SIM_FIX_SENTENCE; with it, N with noise (±1 in two calls of five, from a hash of the prompt's text only, so a
 * simulation gives the same answers whatever bytes its test frames have). The optimizer, shown
 * disagreements where the judge is mostly above the labels and a definition without the sentence, adds it; else it
 * adds a sentence that changes nothing but the wording.
 *
 * Few-shot examples (the rubric prompt's block after RUBRIC_EXAMPLES_MARKER, each with its own `[sim-truth=T]` in its
 * prompt and the expected answer): the judge compares what it would have answered on each example (T + 2 without
 * the sentence, T with it) with the expected answer and takes the mean difference (rounded) off its own answer, with
 * the noise a fixed judge has. So examples labelled with the truth remove the planted bias, and change nothing but
 * the noise of a judge without it. The video's own truth is read outside the examples' block.
 */
export const SIM_FIX_SENTENCE = "Compression artefacts are not defects.";
export const SIM_NEUTRAL_SENTENCE = "Look at every frame.";
const TRUTH = /\[sim-truth=(\d+)\]/;
const RUBRIC_MARKER = /FrameJury rubric answer format: (\{.*\})\s*$/m;

export const ALIGNMENT_OPTIMIZER_STUB_RULE: StubRule = {
  name: "alignment-optimizer",
  match: /^FrameJury alignment optimizer/m,
  respond: (context) => {
    const definition = /<definition>([\s\S]*?)<\/definition>/.exec(context.text)?.[1] ?? "";
    const pairs = [...context.text.matchAll(/judge value (-?[\d.]+); human label (-?[\d.]+)/g)].map(
      (m) => Number(m[1]) - Number(m[2]),
    );
    const above = pairs.filter((d) => d > 0).length > pairs.length / 2;
    const addition = above && !definition.includes(SIM_FIX_SENTENCE) ? SIM_FIX_SENTENCE : SIM_NEUTRAL_SENTENCE;
    return JSON.stringify({ definition: `${definition} ${addition}`.trim() });
  },
};

export const ALIGNMENT_JUDGE_STUB_RULE: StubRule = {
  name: "alignment-judge",
  match: new RegExp(`${TRUTH.source}[\\s\\S]*${RUBRIC_MARKER.source}`, "m"),
  respond: (context) => {
    const start = context.text.indexOf(RUBRIC_EXAMPLES_MARKER);
    const end = start < 0 ? -1 : context.text.indexOf(RUBRIC_EXAMPLES_END, start);
    const block = start < 0 ? "" : context.text.slice(start, end < 0 ? undefined : end);
    const own = start < 0 ? context.text : context.text.slice(0, start) + (end < 0 ? "" : context.text.slice(end));
    const truth = Number(TRUTH.exec(own)![1]);
    const shape = JSON.parse(RUBRIC_MARKER.exec(context.text)![1]!) as {
      criteria: { id: string; type: string; min?: number; max?: number }[];
      reasons: boolean;
    };
    const fixed = context.text.includes(SIM_FIX_SENTENCE);
    const bias = fixed ? 0 : 2;
    const examples = [...block.matchAll(/\[sim-truth=(\d+)\][^\n]*The expected answer: (\{.*\})$/gm)].map((m) => ({
      truth: Number(m[1]),
      answer: JSON.parse(m[2]!) as Record<string, unknown>,
    }));
    const answer: Record<string, unknown> = {};
    for (const c of shape.criteria) {
      const noise = [-1, -1, 1, 1, 0, 0, 0, 0, 0, 0][
        createHash("sha256").update(context.text).update(c.id).digest().readUInt32BE(0) % 10
      ]!;
      const shown = examples.filter((e) => typeof e.answer[c.id] === "number");
      const offset = shown.length
        ? Math.round(shown.reduce((sum, e) => sum + (e.truth + bias - (e.answer[c.id] as number)), 0) / shown.length)
        : 0;
      const value = fixed || shown.length ? truth + bias - offset + noise : truth + 2;
      answer[c.id] = Math.min(c.max ?? value, Math.max(c.min ?? value, value));
    }
    if (shape.reasons)
      answer.reasons = Object.fromEntries(
        shape.criteria.map((c) => [
          c.id,
          fixed ? "Judged the visible content." : "Blocky compression counts as a defect.",
        ]),
      );
    return JSON.stringify(answer);
  },
};
