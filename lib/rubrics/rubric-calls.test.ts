/**
 * A rubric whose criteria ask for their frames differently (one as video, one as stills): one call per way in a video
 * input mode, each listing only its criteria; one call for every criterion in an `images` run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createRun, getRunStatus } from "../judge/runs/runs";
import type { InputMode } from "../judge/input-modes";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { callDefinition, RUBRIC_STEP, rubricCalls } from "./rubric-calls";
import { rubricTaskDeclaration, rubricTargetId } from "./rubric-declaration";
import { rubricDefinitionSchema, type RubricDefinitionInput } from "./rubric-definition";
import { createRubricTask } from "./rubric-tasks";
import { projectAccess } from "../authz/permissions";
import { accessOfRun } from "../../testkit/testing/record-access";

const criterion = (id: string, input?: "images" | "video") => ({
  id,
  name: id === "motion" ? "Motion" : "Hands",
  type: "numeric" as const,
  min: 0,
  max: 10,
  step: 1,
  definition: id === "motion" ? "How natural the motion is." : "How well drawn the hands are.",
  ...(input ? { input } : {}),
});

const definition = (criteria: RubricDefinitionInput["criteria"], name = "Mixed inputs"): RubricDefinitionInput => ({
  name,
  frames: { mode: "key_frames" },
  criteria,
  prompt: "The images are {{frames}}\n\nRate them on:\n{{criteria}}",
});

const mixed = rubricDefinitionSchema.parse({
  ...definition([criterion("motion"), criterion("hands", "images")]),
  examples: [
    {
      videoId: "other",
      frames: [{ id: "ex0", frameSetId: "fs", index: 0, timestampS: 0, sha256: "b".repeat(64) }],
      answer: { motion: 7, hands: 2 },
    },
  ],
});

describe("a rubric's calls", () => {
  it("makes one call, judge, while every criterion asks as the rubric does (or all ask alike)", () => {
    const same = rubricDefinitionSchema.parse(definition([criterion("motion"), criterion("hands", "video")]));
    expect(rubricCalls(same)).toEqual([{ stepId: RUBRIC_STEP, input: "video" }]);
    const allStills = rubricDefinitionSchema.parse(
      definition([criterion("motion", "images"), criterion("hands", "images")]),
    );
    expect(rubricCalls(allStills)).toEqual([{ stepId: RUBRIC_STEP, input: "images" }]);
    expect(callDefinition(allStills, RUBRIC_STEP, "video-frames")).toBe(allStills);
  });

  it("makes a second call for the criteria that ask otherwise, each call with only its criteria and examples' answers", () => {
    expect(rubricCalls(mixed)).toEqual([
      { stepId: "judge", input: "video" },
      { stepId: "judge_images", input: "images" },
    ]);
    const video = callDefinition(mixed, "judge", "video-frames")!;
    const stills = callDefinition(mixed, "judge_images", "video-file")!;
    expect(video.criteria.map((c) => c.id)).toEqual(["motion"]);
    expect(stills.criteria.map((c) => c.id)).toEqual(["hands"]);
    expect(stills.frames.input).toBe("images");
    expect(video.examples![0]!.answer).toEqual({ motion: 7 });
    expect(stills.examples![0]!.answer).toEqual({ hands: 2 });
    // A rubric of stills whose one criterion asks for video: the second call is judge_video.
    const stillsRubric = rubricDefinitionSchema.parse({
      ...definition([criterion("motion", "video"), criterion("hands")]),
      frames: { mode: "key_frames", input: "images" },
    });
    expect(rubricCalls(stillsRubric).map((c) => c.stepId)).toEqual(["judge", "judge_video"]);
  });

  it("judges every criterion in the first call of an images run, and makes no second call", () => {
    expect(callDefinition(mixed, "judge", "images")).toBe(mixed);
    expect(callDefinition(mixed, "judge", undefined)).toBe(mixed);
    expect(callDefinition(mixed, "judge_images", "images")).toBeNull();
    expect(callDefinition(mixed, "judge_unknown", "video-frames")).toBeNull();
  });

  it("declares both steps as metric steps, judge first, each at the rubric's scope", () => {
    const declaration = rubricTaskDeclaration(7, mixed);
    expect(declaration.metricSteps).toEqual(["judge", "judge_images"]);
    expect(declaration.stepScopes).toEqual({ judge: "video", judge_images: "video" });
  });

  it("refuses an input that is neither images nor video on a criterion", () => {
    const bad = definition([{ ...criterion("motion"), input: "clip" as never }]);
    expect(rubricDefinitionSchema.safeParse(bad).success).toBe(false);
  });

  describe("against the stub", () => {
    let stub: StubServer;
    let owner: Actor;
    let projectId: string;
    let endpointId: string;
    beforeAll(async () => {
      stub = await startStubLlm();
      owner = await makeUser();
      ({ projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2, name: "Calls" }));
      endpointId = (await createStubEndpoint(prisma, owner, projectId, stub.baseURL)).id;
    });
    afterAll(async () => stub?.close());

    const run = async (taskPipeline: string, inputMode: InputMode) => {
      stub.reset();
      const deps = { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines };
      const created = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline: taskPipeline,
        endpointId,
        inputMode,
      });
      expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, created.id), created.id)).status).toBe(
        "done",
      );
      const scores = await prisma.score.findMany({
        where: { runId: created.id },
        select: { stepId: true, category: true },
        orderBy: { category: "asc" },
      });
      const requests = stub.requests.map((r) => ({
        videos: r.videos.map((v) => [v.form, v.frames]),
        images: r.imageCount,
        motion: r.text.includes("Motion"),
        hands: r.text.includes("Hands"),
      }));
      const stored = await prisma.judgeRun.findUniqueOrThrow({ where: { id: created.id }, select: { estimate: true } });
      const estimate = stored.estimate as { steps: { stepId: string; calls: number }[] };
      const estimated = estimate.steps.map((s) => [s.stepId, s.calls]);
      return { requests: requests.sort((a, b) => b.videos.length - a.videos.length), scores, estimated };
    };

    it("sends the video criteria as one video part and the stills criteria as images, in two calls", async () => {
      const task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
        definition: definition([criterion("motion"), criterion("hands", "images")], "Mixed against the stub"),
      });
      const key = Number(task.pipeline.replace("rubric_", ""));
      const video = await run(task.pipeline, "video-frames");
      expect(video.requests).toEqual([
        // The stub counts a video part's frames among its images too.
        { videos: [["jpeg-frames", 2]], images: 2, motion: true, hands: false },
        { videos: [], images: 2, motion: false, hands: true },
      ]);
      expect(video.scores).toEqual([
        { stepId: "judge_images", category: rubricTargetId(key, "hands") },
        { stepId: "judge", category: rubricTargetId(key, "motion") },
      ]);
      expect(video.estimated).toEqual([
        ["judge", 1],
        ["judge_images", 1],
      ]);
      // An images run: one call per scope judges both criteria; the second call is skipped (and not estimated).
      const images = await run(task.pipeline, "images");
      expect(images.requests).toEqual([{ videos: [], images: 2, motion: true, hands: true }]);
      expect(images.scores).toEqual([
        { stepId: "judge", category: rubricTargetId(key, "hands") },
        { stepId: "judge", category: rubricTargetId(key, "motion") },
      ]);
      expect(images.estimated).toEqual([["judge", 1]]);
    });
  });
});
