import { describe, expect, it } from "vitest";
import { parseStepAnnotations, stepProblems } from "./step-annotations";

const bytes = (text: string) => new TextEncoder().encode(text);
const VIDEOS = ["hirest/plaster-mask.mp4", "youcook2/grilled-cheese.mp4", "ego4d/kitchen.mp4"];

describe("parseStepAnnotations", () => {
  it("reads JSONL records with steps, substeps, categories and a default dataset", () => {
    const file = [
      JSON.stringify({
        video: "plaster-mask.mp4",
        theme: "Make a Plaster Mask",
        duration: 103,
        dataset: "hirest",
        steps: [{ start: 35, end: 48, text: "clean out the face" }],
      }),
      "",
      JSON.stringify({
        video: "ego4d/kitchen.mp4",
        theme: "making pan seared meal",
        steps: [
          {
            start: 0,
            end: 27.16,
            text: "heat butter",
            category: "Add butter to a pan",
            substeps: [{ start: 0.16, end: 18.61, text: "add butter to skillet", category: "Add oil to a pan" }],
          },
        ],
      }),
    ].join("\n");
    const result = parseStepAnnotations(bytes(file), VIDEOS);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.annotations.map((a) => [a.videoFileName, a.dataset, a.duration, a.line])).toEqual([
      ["hirest/plaster-mask.mp4", "hirest", 103, 1],
      ["ego4d/kitchen.mp4", "generic", null, 3],
    ]);
    expect(result.annotations[1]!.steps[0]).toEqual({
      start: 0,
      end: 27.16,
      text: "heat butter",
      category: "Add butter to a pan",
      substeps: [
        { start: 0.16, end: 18.61, text: "add butter to skillet", category: "Add oil to a pan", substeps: [] },
      ],
    });
  });

  it("reads CSV with one row per step, substep rows attached to the step above, and numbers given as text", () => {
    const file = [
      "video,theme,duration,dataset,start,end,text,category,level",
      "kitchen.mp4,making pan seared meal,400,ego4d-goalstep,0,27.16,heat butter,Add butter to a pan,step",
      "kitchen.mp4,,,,0.16,18.61,add butter to skillet,Add oil to a pan,substep",
      "kitchen.mp4,,,,30,40,cut onion,,",
      "grilled-cheese.mp4,grilled cheese,241.62,youcook2,90,102,spread margarine,,",
    ].join("\r\n");
    const result = parseStepAnnotations(bytes(file), VIDEOS);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [kitchen, cheese] = result.annotations;
    expect(kitchen).toMatchObject({
      video: "kitchen.mp4",
      theme: "making pan seared meal",
      duration: 400,
      dataset: "ego4d-goalstep",
      line: 2,
    });
    expect(kitchen!.steps.map((s) => [s.start, s.end, s.text, s.substeps.length])).toEqual([
      [0, 27.16, "heat butter", 1],
      [30, 40, "cut onion", 0],
    ]);
    expect(cheese).toMatchObject({ duration: 241.62, dataset: "youcook2", line: 5 });
  });

  it("imports nothing half: every bad record is reported with its line", () => {
    const file = [
      JSON.stringify({
        video: "plaster-mask.mp4",
        duration: 100,
        steps: [
          { start: 10, end: 5, text: "a" },
          { start: 2, end: 120, text: "b" },
        ],
      }),
      JSON.stringify({ video: "missing.mp4", steps: [{ start: 0, end: 1, text: "x" }] }),
      "{not json",
      JSON.stringify({ video: "grilled-cheese.mp4", dataset: "ego5d", steps: [] }),
      JSON.stringify({ video: "grilled-cheese.mp4", steps: [{ start: -1, end: 1, text: "" }] }),
      JSON.stringify({ video: "youcook2/grilled-cheese.mp4", steps: [{ start: 0, end: 1, text: "again" }] }),
    ].join("\n");
    const result = parseStepAnnotations(bytes(file), VIDEOS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const messages = result.errors.map((e) => `${e.line}: ${e.message}`);
    expect(messages).toContain("1: steps[1]: ends at 5s, not after its start 10s");
    expect(messages).toContain(
      "1: steps[2]: starts at 2s, before the step above it (10s); steps must be in time order",
    );
    expect(messages).toContain("1: steps[2]: ends at 120s, after the video's duration 100s");
    expect(messages).toContain('2: video "missing.mp4" is not among the project\'s videos');
    expect(messages.some((m) => m.startsWith("3: not valid JSON"))).toBe(true);
    expect(
      messages.some((m) =>
        m.startsWith("4: dataset: must be one of hirest, youcook2, ego4d-goalstep, egoexo4d, generic"),
      ),
    ).toBe(true);
    expect(messages).toContain("4: steps: must list at least one step");
    expect(messages).toContain("5: steps[1].text: must not be empty (what happens)");
    expect(messages).toContain(
      '6: video "youcook2/grilled-cheese.mp4" is annotated again (first on line 4); give each video one record',
    );
    expect(result.unmatchedVideos).toEqual(["missing.mp4"]);
  });

  it("reports a CSV video whose rows disagree on its duration, and a substep with no step above", () => {
    const file = [
      "video,duration,start,end,text,level",
      "kitchen.mp4,400,0,1,a,substep",
      "kitchen.mp4,400,0,1,a,step",
      "kitchen.mp4,300,1,2,b,step",
    ].join("\n");
    const result = parseStepAnnotations(bytes(file), VIDEOS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      "2: level: a substep needs a step row above it for the same video",
      '4: duration: "300" differs from "400" given for the same video on line 2',
    ]);
  });
});

describe("stepProblems", () => {
  it("checks substeps against the duration too, with their path", () => {
    expect(stepProblems([{ start: 0, end: 10, substeps: [{ start: 5, end: 12, substeps: [] }] }], 11)).toEqual([
      "steps[1].substeps[1]: ends at 12s, after the video's duration 11s",
    ]);
  });
  it("accepts touching and overlapping steps in time order", () => {
    expect(
      stepProblems(
        [
          { start: 0, end: 10, substeps: [] },
          { start: 10, end: 12, substeps: [] },
          { start: 10, end: 11, substeps: [] },
        ],
        12,
      ),
    ).toEqual([]);
  });
});
