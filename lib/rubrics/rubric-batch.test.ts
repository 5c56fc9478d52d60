/**
 * A rubric task through the Batch API path (issue 25: "run form and progress, cache, cost, Batch API"): a
 * per-cluster rubric with a frame size runs once online and once in batch mode against the stub's Batch API, the
 * video jobs and batch checks driven in this process as a worker drives them (see lib/judge/batch/batch-runs.test.ts).
 * The batch run sends no chat completion, its lines carry the frames at the rubric's size, and its scores and
 * per-video values are the online run's, the values checked by hand from the scores.
 */
import jpeg from "jpeg-js";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { advanceBatchRun, openAiBatchApi, type BatchRunnerDeps } from "../judge/batch/batch-runner";
import { createEndpoint, endpointConfigForRun } from "../judge/endpoints/endpoints";
import { createRunSchema } from "../judge/runs/run-input.validation";
import { judgeVideo } from "../judge/engine/judge-video";
import { createRun, getRunStatus } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { getStorage } from "../storage/storage";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { rubricMetricId, rubricTargetId } from "./rubric-declaration";
import type { RubricDefinitionInput } from "./rubric-definition";
import { createRubricTask } from "./rubric-tasks";
import { builtInCatalogue, catalogFor } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";
import { accessOfRun } from "../../testkit/testing/record-access";

const DEFINITION: RubricDefinitionInput = {
  name: "Defects (batch)",
  frames: { mode: "each_cluster", longestSide: 128 },
  criteria: [
    {
      id: "physics",
      name: "Physics violation",
      type: "numeric",
      min: 0,
      max: 10,
      step: 1,
      higherIsBetter: false,
      aggregation: "max",
      presence: { threshold: 4, absentValue: 0 },
      definition: "How strongly these frames break physics, 0 none to 10 nonsense.",
    },
    {
      id: "garbled",
      name: "Garbled text",
      type: "boolean",
      higherIsBetter: false,
      definition: "On-screen text is garbled.",
    },
  ],
  prompt: "The images are {{frames}}\n\nRate them on:\n{{criteria}}",
  reasons: true,
};
const VIDEOS = 3;
const KEY_FRAMES = 2;

let stub: StubServer;
let owner: Actor;
const judgeDeps = testJudgeDeps();

beforeAll(async () => {
  stub = await startStubLlm({ batch: { completionDelayMs: 0 } });
  owner = await makeUser();
});
afterAll(async () => stub?.close());

function picture(width: number, height: number, shade: number): Buffer {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([shade, (i % width) % 256, 90, 255], i * 4);
  return Buffer.from(jpeg.encode({ data, width, height }, 90).data);
}

async function endpoint(projectId: string, model: string, supportsBatchApi: boolean) {
  return (
    await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: `${model} ${supportsBatchApi ? "batch" : "online"}`,
      baseUrl: stub.baseURL,
      model,
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 4,
      requestsPerMinute: null,
      timeoutSeconds: 30,
      structuredOutput: true,
      pricePer1kInput: 0.01,
      pricePer1kOutput: 0.03,
      supportsBatchApi,
    })
  ).id;
}

/** A worker's share of a batch run, in this process: video jobs judged as they are queued, batch checks until the run needs none. */
function batchDriver() {
  const queued: { runId: string; videoId: string }[] = [];
  const runner: BatchRunnerDeps = {
    prisma,
    storage: getStorage(),
    endpointConfig: (runId, endpointId) => endpointConfigForRun(prisma, runId, endpointId),
    batchApiFor: openAiBatchApi,
    enqueueVideos: async (jobs) => void queued.push(...jobs),
    videoJobsInFlight: async () => queued.length,
  };
  return {
    queue: {
      enqueue: async (jobs: { runId: string; videoId: string }[]) => void queued.push(...jobs),
      startBatchChecks: async () => {},
    },
    async settle(runId: string) {
      for (let i = 0; i < 50; i++) {
        while (queued.length) await Promise.all(queued.splice(0).map((job) => judgeVideo(judgeDeps, job)));
        if ((await advanceBatchRun(runner, runId)) === "finished") return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error("the batch run did not settle");
    },
  };
}

async function scoresOf(runId: string) {
  const rows = await prisma.score.findMany({
    where: { runId },
    select: { videoId: true, stepId: true, scopeIndex: true, category: true, value: true },
  });
  return rows.map((r) => `${r.videoId} ${r.stepId}[${r.scopeIndex}] ${r.category}=${r.value}`).sort();
}

describe("a rubric task in batch mode", () => {
  it(
    "settles through the Batch API with the online run's scores and per-video values, its frames at the rubric's size",
    { timeout: 120_000 },
    async () => {
      const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
        videoCount: VIDEOS,
        keyFrames: KEY_FRAMES,
        name: "Rubric batch",
      });
      // The fixture's frames are 64×48: store 320×180 pictures (each its own) so the rubric's 128 px size scales them.
      const storage = getStorage();
      const frames = await prisma.frame.findMany({
        where: { frameSet: { video: { projectId } } },
        orderBy: { storageKey: "asc" },
        select: { storageKey: true },
      });
      for (const [i, frame] of frames.entries()) await storage.put(frame.storageKey, picture(320, 180, (i * 37) % 256));
      const task = await createRubricTask(prisma, await projectAccess(prisma, owner, projectId, "rubrics.manage"), {
        definition: DEFINITION,
      });
      const physics = rubricTargetId(task.key, "physics");
      const garbled = rubricTargetId(task.key, "garbled");

      // Different model names: the cache key has the model, the stub's rubric answers do not.
      const online = await createRun(
        { prisma, queue: inlineJudgeQueue(judgeDeps), pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        createRunSchema(await catalogFor(prisma, projectId)).parse({
          pipeline: task.pipeline,
          endpointId: await endpoint(projectId, "stub-online", false),
        }),
      );
      expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, online.id), online.id)).status).toBe("done");
      const onlineRequests = stub.requests.length;
      expect(onlineRequests).toBe(VIDEOS * KEY_FRAMES);

      const driver = batchDriver();
      const run = await createRun(
        { prisma, queue: driver.queue, pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        createRunSchema(await catalogFor(prisma, projectId)).parse({
          pipeline: task.pipeline,
          endpointId: await endpoint(projectId, "stub-batch", true),
          batch: true,
        }),
      );
      await driver.settle(run.id);

      const stored = await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } });
      expect(stored).toMatchObject({ status: "done", batchMode: true });
      // Not one chat completion: every cluster's call went in a batch line, one per cluster.
      expect(stub.requests.length).toBe(onlineRequests);
      expect(stub.batchLines).toHaveLength(VIDEOS * KEY_FRAMES);
      expect(
        stub.batchLines.every((line) => line.rule === "rubric" && line.status === 200 && line.images.length === 3),
      ).toBe(true);
      const batches = await prisma.judgeBatch.findMany({ where: { runId: run.id } });
      expect(batches.length).toBeGreaterThan(0);
      expect(batches.every((b) => b.status === "completed" && b.ingestedAt !== null && b.failedCount === 0)).toBe(true);

      // The lines' images are the rubric's size: read back the input files the batches were created from.
      const files = new OpenAI({ baseURL: stub.baseURL, apiKey: "not-needed" }).files;
      const sizes: number[][] = [];
      for (const batch of batches) {
        const text = await (await files.content(batch.inputFileId!)).text();
        for (const line of text.trim().split("\n")) {
          const body = (
            JSON.parse(line) as {
              body: { messages: { content: string | { type: string; image_url?: { url: string } }[] }[] };
            }
          ).body;
          for (const message of body.messages) {
            if (typeof message.content === "string") continue;
            for (const part of message.content) {
              if (!part.image_url) continue;
              const image = jpeg.decode(
                Buffer.from(part.image_url.url.slice(part.image_url.url.indexOf(",") + 1), "base64"),
              );
              sizes.push([image.width, image.height]);
            }
          }
        }
      }
      expect(sizes).toEqual(Array.from({ length: VIDEOS * KEY_FRAMES * 3 }, () => [128, 72]));

      // The batch run's scores are the online run's (same prompts and frames), one per criterion and cluster.
      const batchScores = await scoresOf(run.id);
      expect(batchScores).toEqual(await scoresOf(online.id));
      expect(batchScores).toHaveLength(VIDEOS * KEY_FRAMES * 2);
      // Each video's values, by hand from its cluster scores: physics their maximum, garbled their majority (a tie: yes).
      const scores = await prisma.score.findMany({
        where: { runId: run.id },
        select: { videoId: true, category: true, value: true },
      });
      const metrics = await prisma.runMetric.findMany({
        where: { runId: run.id },
        select: { videoId: true, metric: true, value: true },
      });
      for (const videoId of videoIds) {
        const of = (category: string) =>
          scores.filter((s) => s.videoId === videoId && s.category === category).map((s) => s.value);
        expect(of(physics)).toHaveLength(KEY_FRAMES);
        const yes = of(garbled).filter((v) => v === 1).length;
        const metric = (criterion: string) =>
          metrics.find((m) => m.videoId === videoId && m.metric === rubricMetricId(task.key, criterion))?.value;
        expect(metric("physics")).toBe(Math.max(...of(physics)));
        expect(metric("garbled")).toBe(yes >= KEY_FRAMES - yes ? 1 : 0);
      }
      // Batch lines are billed at half the online price.
      const [batchStatus, onlineStatus] = await Promise.all([
        getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id),
        getRunStatus(prisma, await accessOfRun(prisma, owner, online.id), online.id),
      ]);
      expect(batchStatus.costUsd).toBeCloseTo(onlineStatus.costUsd! / 2, 10);
      expect(batchStatus.costUsd).toBeGreaterThan(0);
    },
  );
});
