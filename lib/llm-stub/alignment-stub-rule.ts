import { createHash } from "node:crypto";
import type { StubRule } from "./stub-rule";

/**
 * TEST TOOL. A simulated judge with a planted rubric bias, and a simulated optimizer that can fix it (issue 26
 * item 5's alignment claim). A video whose prompt carries `[sim-truth=N]` has the true value N on a numeric rubric
 * criterion. The judge answers every criterion N + 2 (clamped to the scale) unless the prompt contains
 * SIM_FIX_SENTENCE; with it, N with noise (±1 in two calls of five, from a hash of the prompt's text only, so a
 * simulation gives the same answers whatever bytes its test frames have). The optimizer, shown
 * disagreements where the judge is mostly above the labels and a definition without the sentence, adds it; else it
 * adds a sentence that changes nothing but the wording.
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
    const pairs = [...context.text.matchAll(/judge value (-?[\d.]+); human label (-?[\d.]+)/g)].map((m) => Number(m[1]) - Number(m[2]));
    const above = pairs.filter((d) => d > 0).length > pairs.length / 2;
    const addition = above && !definition.includes(SIM_FIX_SENTENCE) ? SIM_FIX_SENTENCE : SIM_NEUTRAL_SENTENCE;
    return JSON.stringify({ definition: `${definition} ${addition}`.trim() });
  },
};

export const ALIGNMENT_JUDGE_STUB_RULE: StubRule = {
  name: "alignment-judge",
  match: new RegExp(`${TRUTH.source}[\\s\\S]*${RUBRIC_MARKER.source}`, "m"),
  respond: (context) => {
    const truth = Number(TRUTH.exec(context.text)![1]);
    const shape = JSON.parse(RUBRIC_MARKER.exec(context.text)![1]!) as { criteria: { id: string; type: string; min?: number; max?: number }[]; reasons: boolean };
    const fixed = context.text.includes(SIM_FIX_SENTENCE);
    const answer: Record<string, unknown> = {};
    for (const c of shape.criteria) {
      const noise = [-1, -1, 1, 1, 0, 0, 0, 0, 0, 0][createHash("sha256").update(context.text).update(c.id).digest().readUInt32BE(0) % 10]!;
      const value = fixed ? truth + noise : truth + 2;
      answer[c.id] = Math.min(c.max ?? value, Math.max(c.min ?? value, value));
    }
    if (shape.reasons) answer.reasons = Object.fromEntries(shape.criteria.map((c) => [c.id, fixed ? "Judged the visible content." : "Blocky compression counts as a defect."]));
    return JSON.stringify(answer);
  },
};
