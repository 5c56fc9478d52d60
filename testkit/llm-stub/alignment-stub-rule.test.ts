/**
 * The simulated judge's few-shot behaviour (issue 26 item 4's few-shot candidate): examples labelled with the truth
 * take the planted bias off; examples that agree with a judge without the bias leave its answers at truth ± noise;
 * the judged video's truth is its own, never an example's.
 */
import { describe, expect, it } from "vitest";
import type { RubricDefinition } from "../../lib/rubrics/rubric-definition";
import { examplesText, renderRubricPrompt } from "../../lib/rubrics/rubric-prompt";
import { ALIGNMENT_JUDGE_STUB_RULE, SIM_FIX_SENTENCE } from "./alignment-stub-rule";
import { makeContext } from "./stub-rule";

const definition = (sentence: string): RubricDefinition =>
  ({
    name: "Defects",
    description: "",
    guidelines: "",
    subject: { kind: "video" },
    frames: { mode: "key_frames" },
    criteria: [
      {
        id: "defects",
        name: "Defects",
        type: "numeric",
        min: 1,
        max: 9,
        step: 1,
        higherIsBetter: false,
        definition: `How defective.${sentence}`,
      },
    ],
    prompt: "{{prompt}} {{frames}}\n{{criteria}}",
    reasons: false,
  }) as unknown as RubricDefinition;

const frame = { id: "f", frameSetId: "s", index: 0, timestampS: 0, sha256: "0".repeat(64) };
const example = (truth: number, label: number) => ({
  videoId: `v${truth}`,
  prompt: `Clip [sim-truth=${truth}]`,
  frames: [frame],
  answer: { defects: label },
});

function answer(sentence: string, truth: number, examples: ReturnType<typeof example>[], salt: number): number {
  const text = renderRubricPrompt(definition(sentence), {
    prompt: `Clip ${salt} [sim-truth=${truth}]`,
    frames: "1 key frame",
    examples: examplesText(examples, 1),
  });
  expect(ALIGNMENT_JUDGE_STUB_RULE.match.test(text)).toBe(true);
  return (JSON.parse(ALIGNMENT_JUDGE_STUB_RULE.respond(makeContext(text, [], true))) as { defects: number }).defects;
}

describe("the alignment judge stub with few-shot examples", () => {
  it("without examples the biased judge answers truth + 2", () => {
    for (let salt = 0; salt < 10; salt++) expect(answer("", 3, [], salt)).toBe(5);
  });

  it("examples labelled with the truth remove the bias (truth ± 1 noise), whatever the examples' own truths", () => {
    const values = Array.from({ length: 30 }, (_, salt) => answer("", 3, [example(7, 7), example(1, 1)], salt));
    for (const v of values) expect(Math.abs(v - 3)).toBeLessThanOrEqual(1);
    expect(values.filter((v) => v === 3).length).toBeGreaterThan(values.length / 3);
  });

  it("a judge without the bias stays at truth ± noise with examples that agree with it", () => {
    const values = Array.from({ length: 30 }, (_, salt) =>
      answer(` ${SIM_FIX_SENTENCE}`, 4, [example(7, 7), example(2, 2)], salt),
    );
    for (const v of values) expect(Math.abs(v - 4)).toBeLessThanOrEqual(1);
  });

  it("examples labelled above the truth push a judge without the bias up by their mean offset", () => {
    const values = Array.from({ length: 30 }, (_, salt) =>
      answer(` ${SIM_FIX_SENTENCE}`, 4, [example(5, 7), example(2, 4)], salt),
    );
    for (const v of values) expect(Math.abs(v - 6)).toBeLessThanOrEqual(1);
  });
});
