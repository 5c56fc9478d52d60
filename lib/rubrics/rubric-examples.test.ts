/**
 * A rubric definition's few-shot examples (saved by an alignment's few-shot candidate): the step attaches their
 * frames after the judged video's, read from the task's own project's storage whatever the definition says, never
 * shows a video as its own example, and the Rubric tasks form keeps them through an edit.
 */
import { describe, expect, it } from "vitest";
import { definitionInputOf, draftOf } from "../../components/rubrics/rubric-draft";
import { rubricDefinitionSchema, rubricProblems } from "./rubric-definition";
import { rubricPromptValues, rubricScopeInput } from "./rubric-pipeline";
import { renderRubricPrompt } from "./rubric-prompt";

const sha = "a".repeat(64);
const definition = rubricDefinitionSchema.parse({
  name: "Defects",
  frames: { mode: "key_frames" },
  criteria: [{ id: "defects", name: "Defects", type: "numeric", min: 1, max: 5, definition: "How defective." }],
  prompt: "{{prompt}} {{frames}}\n{{criteria}}",
  examples: [
    {
      videoId: "v1",
      prompt: "one",
      frames: [{ id: "f1", frameSetId: "s1", index: 3, timestampS: 1.5, sha256: sha }],
      answer: { defects: 2 },
    },
    {
      videoId: "v2",
      prompt: "two",
      frames: [
        { id: "f2", frameSetId: "s2", index: 0, timestampS: 0, sha256: sha },
        { id: "f3", frameSetId: "s2", index: 1, timestampS: 1, sha256: sha },
      ],
      answer: { defects: 5 },
    },
  ],
});
const own = {
  id: "own",
  index: 0,
  timestampS: 0,
  isKeyFrame: true,
  cluster: 0,
  storageKey: "projects/p1/frames/s0/00000.jpg",
  sha256: sha,
};
const context = { prompt: "judged", frames: [own], keyFrames: [own], clusters: [[own]] };

describe("few-shot examples in a rubric definition", () => {
  it("attaches the examples' frames after the video's own, keyed in the task's project, and numbers them in the prompt", () => {
    const input = rubricScopeInput(definition, 0, { ...context, videoId: "v9" }, "p1");
    expect(input.frames.map((f) => f.storageKey)).toEqual([
      own.storageKey,
      "projects/p1/frames/s1/00003.jpg",
      "projects/p1/frames/s2/00000.jpg",
      "projects/p1/frames/s2/00001.jpg",
    ]);
    const prompt = renderRubricPrompt(definition, rubricPromptValues(input.values));
    expect(prompt).toContain('Example 1 (image 2): prompt "one". The expected answer: {"defects":2}');
    expect(prompt).toContain('Example 2 (images 3–4): prompt "two". The expected answer: {"defects":5}');
    expect(prompt.indexOf("FrameJury few-shot examples: 2")).toBeLessThan(
      prompt.indexOf("FrameJury rubric answer format:"),
    );
  });

  it("never shows a video as its own example", () => {
    const input = rubricScopeInput(definition, 0, { ...context, videoId: "v1" }, "p1");
    expect(input.frames.map((f) => f.id)).toEqual(["own", "f2", "f3"]);
    expect(input.values.examples).toContain("FrameJury few-shot examples: 1 ");
    expect(input.values.examples).not.toContain('"one"');
  });

  it("refuses a frame named by a path, and the form keeps the examples through an edit", () => {
    const bad = {
      ...definition,
      examples: [
        {
          ...definition.examples![0]!,
          frames: [{ ...definition.examples![0]!.frames[0]!, frameSetId: "../../other/frames/x" }],
        },
      ],
    };
    expect(rubricProblems(bad).definition).toBeNull();
    const edited = rubricProblems(definitionInputOf({ ...draftOf(definition), name: "Defects 2" })).definition!;
    expect(edited.name).toBe("Defects 2");
    expect(edited.examples).toEqual(definition.examples);
  });
});
