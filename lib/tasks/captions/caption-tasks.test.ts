import { describe, expect, it } from "vitest";
import { declarationProblems } from "../../../testkit/testing/declaration-problems";
import { pipelineIds } from "../../judge/runs/run-input.validation";

import { captionContentPipeline } from "./caption-content";
import { captionStylePipeline, captionStyleSettingsSchema } from "./caption-style";
import { CAPTION_CONTENT_TASK, CAPTION_STYLE_TASK } from "./caption-tasks";
import { builtInCatalogue } from "../../task-modules/task-catalogue";

describe("the caption tasks", () => {
  it("are consistent declarations carried by their pipelines", () => {
    expect(declarationProblems(CAPTION_STYLE_TASK)).toEqual([]);
    expect(declarationProblems(CAPTION_CONTENT_TASK)).toEqual([]);
    expect(captionStylePipeline.task).toBe(CAPTION_STYLE_TASK);
    expect(captionContentPipeline.task).toBe(CAPTION_CONTENT_TASK);
    // Every score a step writes is a declared target (the key points' index rides in the category).
    expect(CAPTION_STYLE_TASK.targets.map((t) => t.id).sort()).toEqual(["style", "style_raw"]);
    expect(CAPTION_CONTENT_TASK.targets.map((t) => t.id)).toEqual(["key_point"]);
  });

  it("are the pipelines a run may name, with the frame set they need", () => {
    expect(pipelineIds(builtInCatalogue())).toEqual(expect.arrayContaining(["caption_style", "caption_content"]));
    expect(pipelineIds(builtInCatalogue()).sort()).toEqual(Object.keys(builtInCatalogue().pipelines).sort());
    expect(captionStylePipeline.frames!(captionStyleSettingsSchema.parse({}))).toEqual({ mode: "uniform", count: 8 });
    expect(captionContentPipeline.frames!({ frames: 16 })).toEqual({ mode: "uniform", count: 16 });
    expect(captionStyleSettingsSchema.parse({})).toEqual({
      countedScore: "after_rules",
      frames: 8,
      wordCounting: "framejury",
    });
    expect(() => captionStyleSettingsSchema.parse({ countedScore: "raw" })).toThrow();
  });
});
