/**
 * A rubric in the video input modes: a scope's frames go as one video part unless the rubric asks for stills
 * (`frames.input: "images"`, the rubric's, since one call judges all of a scope's criteria); its few-shot examples'
 * frames, from other videos, always follow as images.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { createEndpoint } from "../judge/endpoints/endpoints";
import { createRun, getRunStatus } from "../judge/runs/runs";
import { planRequestMedia } from "../judge/input-modes/plan-request-media";
import type { FrameRef } from "../task-modules/pipeline-types";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { rubricDefinitionSchema, type RubricDefinitionInput } from "./rubric-definition";
import { rubricScopeInput } from "./rubric-pipeline";
import { createRubricTask } from "./rubric-tasks";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";
import { accessOfRun } from "../../testkit/testing/record-access";

const definition = (frames: RubricDefinitionInput["frames"]): RubricDefinitionInput => ({
  name: `Mode ${JSON.stringify(frames)}`,
  frames,
  criteria: [{ id: "defect", name: "Defect", type: "numeric", min: 0, max: 10, step: 1, definition: "How broken." }],
  prompt: "The images are {{frames}}\n\nRate them on:\n{{criteria}}",
});

const frame = (i: number): FrameRef => ({
  id: `f${i}`,
  index: i,
  timestampS: i,
  isKeyFrame: true,
  cluster: null,
  storageKey: `k${i}`,
  sha256: "a".repeat(64),
});

describe("a rubric scope's frames in a video run", () => {
  it("keeps a few-shot example's frames out of the judged video's video part", () => {
    const parsed = rubricDefinitionSchema.parse({
      ...definition({ mode: "key_frames" }),
      examples: [
        {
          videoId: "other",
          frames: [{ id: "ex0", frameSetId: "fs", index: 0, timestampS: 0, sha256: "b".repeat(64) }],
          answer: { defect: 3 },
        },
      ],
    });
    const context = {
      prompt: "p",
      frames: [frame(0), frame(1)],
      keyFrames: [frame(0), frame(1)],
      clusters: [],
      videoId: "v",
    };
    const input = rubricScopeInput(parsed, 0, context, "project");
    expect(input.frames.map((f) => f.id)).toEqual(["f0", "f1", "ex0"]);
    const plan = planRequestMedia({
      runMode: "video-frames",
      scope: "video",
      input,
      exampleFrames: [],
      clip: null,
      batch: false,
      capabilities: null,
    });
    expect(plan.videoFrames.map((f) => f.id)).toEqual(["f0", "f1"]);
    expect(plan.imageFrames.map((f) => f.id)).toEqual(["ex0"]);
  });

  it("refuses an input that is neither images nor video", () => {
    expect(rubricDefinitionSchema.safeParse(definition({ mode: "key_frames", input: "clip" as never })).success).toBe(
      false,
    );
  });

  describe("against the stub", () => {
    let stub: StubServer;
    let owner: Actor;
    let projectId: string;
    let endpointId: string;
    beforeAll(async () => {
      stub = await startStubLlm();
      owner = await makeUser();
      ({ projectId } = await projectWithFramedVideos(prisma, owner, {
        videoCount: 1,
        keyFrames: 2,
        name: "Rubric modes",
      }));
      endpointId = (
        await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
          name: "stub",
          baseUrl: stub.baseURL,
          model: "stub-vision",
          apiKey: null,
          imageDetail: "low",
          temperature: 0,
          maxConcurrency: 2,
          requestsPerMinute: null,
          timeoutSeconds: 60,
          structuredOutput: true,
          pricePer1kInput: null,
          pricePer1kOutput: null,
        })
      ).id;
    });
    afterAll(async () => stub?.close());

    const run = async (frames: RubricDefinitionInput["frames"]) => {
      stub.reset();
      const task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
        definition: definition(frames),
      });
      const deps = { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines };
      const created = await createRun(deps, await projectAccess(prisma, owner, projectId, "runs.manage"), {
        pipeline: task.pipeline,
        endpointId,
        inputMode: "video-frames",
      });
      expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, created.id), created.id)).status).toBe(
        "done",
      );
      return stub.requests.map((r) => r.videos.map((v) => [v.form, v.frames]));
    };

    it("sends the key frames as one video by default, and as stills when the rubric asks for images", async () => {
      expect(await run({ mode: "key_frames" })).toEqual([[["jpeg-frames", 2]]]);
      expect(await run({ mode: "key_frames", input: "images" })).toEqual([[]]);
      expect(stub.requests[0]!.imageCount).toBe(2);
      // "video" is the default: the very request of the first run, answered from the cache.
      expect(await run({ mode: "key_frames", input: "video" })).toEqual([]);
    });
  });
});
