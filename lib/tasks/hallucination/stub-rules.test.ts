/**
 * The simulated inconsistency judge's few-shot behaviour (issue 26 item 4.2): shown a `[sim-artefacts]` example whose
 * person value is well below the biased answer, it stops over-scoring artefacts; examples without artefacts change
 * nothing; the examples' own tags are never read as the judged video's.
 */
import { describe, expect, it } from "vitest";
import { templateExamplesText, type TemplateExample } from "../../prompt-versions/template-examples";
import { SIM_FIX_SENTENCE } from "../../../testkit/llm-stub/alignment-stub-rule";
import type { StubRequestContext } from "../../../testkit/llm-stub/stub-rule";
import { SIM_INCONSISTENCY_RULE } from "./stub-rules";

const BODY =
  "Given a description of the video from a human, compare the inconsistency in the two descriptions and give a score.";
const frame = { frameSetId: "fs", index: 0, sha256: "a".repeat(64) };
const example = (prompt: string, label: number): TemplateExample => ({
  videoId: prompt,
  prompt,
  target: "Prompt inconsistency",
  label,
  labelText: String(label),
  frames: [frame],
});
const ask = (own: string, examples: TemplateExample[] = [], body = BODY) => {
  const text = `${body}\nHuman Description:${own}${examples.length ? `\n\n${templateExamplesText(examples)}` : ""}`;
  const context = {
    text,
    imageCount: 1,
    pick: () => 0,
    wantsJson: true,
    model: "m",
    seen: 0,
  } as unknown as StubRequestContext;
  expect(SIM_INCONSISTENCY_RULE.match instanceof RegExp && SIM_INCONSISTENCY_RULE.match.test(text)).toBe(true);
  return (JSON.parse(SIM_INCONSISTENCY_RULE.respond(context) as string) as { score: number }).score;
};

describe("the simulated inconsistency judge with few-shot examples", () => {
  it("over-scores artefacts by 6 without examples or the sentence, and answers the truth (±1) with the sentence", () => {
    expect(ask("A ball [sim-truth=2] [sim-artefacts]")).toBe(8);
    expect(ask("A ball [sim-truth=2]")).toBe(2);
    expect(
      Math.abs(ask("A ball [sim-truth=2] [sim-artefacts]", [], `${BODY} ${SIM_FIX_SENTENCE}`) - 2),
    ).toBeLessThanOrEqual(1);
  });

  it("stops over-scoring once shown an artefact example labelled well below its biased answer", () => {
    const taught = [example("A cup [sim-truth=1] [sim-artefacts]", 1)];
    expect(Math.abs(ask("A ball [sim-truth=2] [sim-artefacts]", taught) - 2)).toBeLessThanOrEqual(1);
    expect(Math.abs(ask("A ball [sim-truth=8]", taught) - 8)).toBeLessThanOrEqual(1);
    // An artefact example whose label is close to the biased answer teaches nothing.
    expect(ask("A ball [sim-truth=2] [sim-artefacts]", [example("A cup [sim-truth=9] [sim-artefacts]", 9)])).toBe(8);
  });

  it("is unchanged by examples without artefacts, and never reads an example's tags as the video's own", () => {
    const plain = [example("A cup [sim-truth=9]", 9), example("A dog [sim-truth=1]", 1)];
    expect(ask("A ball [sim-truth=2] [sim-artefacts]", plain)).toBe(8);
    expect(ask("A ball [sim-truth=3]", plain)).toBe(3);
    // The example carries artefacts and another truth; the video has neither.
    expect(ask("A ball [sim-truth=3]", [example("A cup [sim-truth=9] [sim-artefacts]", 9)])).toBe(3);
  });
});
