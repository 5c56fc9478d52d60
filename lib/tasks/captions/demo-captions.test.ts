import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseModelOutputs, parseReferenceSet } from "./caption-sets";
import { applyLengthRules } from "./length-rules";
import { CLIPS } from "../../../testkit/demo/demo-clips";
import { demoCaptions } from "./demo-seed";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("the demo's caption set", () => {
  it("is a valid AnyCapEval reference set over the demo clips, with outputs of two simulated models for every reference", () => {
    const { reference, outputs } = demoCaptions();
    const parsed = parseReferenceSet(
      bytes(reference),
      CLIPS.map((clip) => path.basename(clip.path)),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.items).toHaveLength(CLIPS.length * 3);
    expect(new Set(parsed.items.map((item) => item.captionType))).toEqual(new Set(["brief", "detail", "action"]));
    expect(Object.keys(outputs)).toEqual(["simulated-model-a", "simulated-model-b"]);
    for (const [model, text] of Object.entries(outputs)) {
      const result = parseModelOutputs(bytes(text), { model, format: "jsonl", references: parsed.items });
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      expect(result.items).toHaveLength(parsed.items.length);
    }
  });

  it("gives each model captions that break the ±10% rule, so the demo shows the rule flags", () => {
    const { reference, outputs } = demoCaptions();
    const parsed = parseReferenceSet(
      bytes(reference),
      CLIPS.map((clip) => path.basename(clip.path)),
    );
    if (!parsed.ok) throw new Error("invalid");
    for (const [model, text] of Object.entries(outputs)) {
      const result = parseModelOutputs(bytes(text), { model, format: "jsonl", references: parsed.items });
      if (!result.ok) throw new Error("invalid");
      const capped = result.items.filter((output) => {
        const ref = parsed.items.find((r) => r.id === output.referenceId)!;
        if (ref.captionType !== "brief" && ref.captionType !== "detail") return false;
        return (
          applyLengthRules({
            captionType: ref.captionType,
            instruction: ref.instruction,
            restriction: ref.restriction || null,
            reference: ref.reference,
            output: output.output,
            judgeScore: 2,
          }).cap !== null
        );
      });
      expect(capped.length, model).toBe(CLIPS.length);
    }
  });
});
