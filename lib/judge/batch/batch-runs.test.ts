/**
 * Batch-mode runs end to end on PostgreSQL against the stub LLM's Batch API (a test tool): the video jobs
 * and the run's batch checks are driven in this process, the way a worker runs them (the restart test in
 * batch-restart.test.ts uses real worker processes).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { getStorage } from "@/lib/storage/storage";
import { createEndpoint, endpointConfigForRun } from "../endpoints/endpoints";
import type { EndpointConfig } from "../engine/judge-deps";
import { EndpointNotAllowedError } from "../endpoints/endpoint-url-policy";
import { createRunSchema } from "../runs/run-input.validation";
import { judgeVideo } from "../engine/judge-video";

import { cancelRun, createRun, getRunStatus } from "../runs/runs";
import { advanceBatchRun, openAiBatchApi, type BatchRunnerDeps } from "./batch-runner";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;
const judgeDeps = testJudgeDeps();
const STEPS_PER_VIDEO = 14; // hallucination with 3 key frames: 3 + 3 + 1 + 1 + 3 + 3

beforeAll(async () => {
  stub = await startStubLlm({ batch: { completionDelayMs: 0 } });
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.reset();
  stub.setBatchOptions({ completionDelayMs: 0, failedShare: 0 });
});

async function endpoint(projectId: string, model: string, supportsBatchApi: boolean) {
  return (
    await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: `${model} ${supportsBatchApi ? "batch" : "online"}`,
      baseUrl: stub.baseURL,
      model,
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 8,
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
function batchDriver(options: { maxFileBytes?: number } = {}) {
  const queued: { runId: string; videoId: string }[] = [];
  const runner: BatchRunnerDeps = {
    ...options,
    prisma,
    storage: getStorage(),
    endpointConfig: (runId, endpointId) => endpointConfigForRun(prisma, runId, endpointId),
    batchApiFor: openAiBatchApi,
    enqueueVideos: async (jobs) => void queued.push(...jobs),
    videoJobsInFlight: async () => queued.length,
  };
  const judgeQueued = async () => {
    while (queued.length) await Promise.all(queued.splice(0).map((job) => judgeVideo(judgeDeps, job)));
  };
  return {
    queue: {
      enqueue: async (jobs: { runId: string; videoId: string }[]) => void queued.push(...jobs),
      startBatchChecks: async () => {},
    },
    runner,
    judgeQueued,
    /** One check after judging what is queued. */
    async check(runId: string) {
      await judgeQueued();
      return advanceBatchRun(runner, runId);
    },
    async settle(runId: string, maxChecks = 50) {
      for (let i = 0; i < maxChecks; i++) {
        if ((await this.check(runId)) === "finished") return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error("the batch run did not settle");
    },
  };
}

async function startBatchRun(driver: ReturnType<typeof batchDriver>, projectId: string, endpointId: string) {
  return createRun(
    { prisma, queue: driver.queue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    createRunSchema(builtInCatalogue()).parse({ pipeline: "hallucination", endpointId, batch: true }),
  );
}

async function scoresOf(runId: string) {
  const rows = await prisma.score.findMany({
    where: { runId },
    select: { videoId: true, stepId: true, scopeIndex: true, category: true, value: true },
  });
  return rows.map((r) => `${r.videoId} ${r.stepId}[${r.scopeIndex}] ${r.category}=${r.value}`).sort();
}

const lineKey = (line: { text: string; images: string[] }) => `${line.text}\n${line.images.join(",")}`;

describe("the Batch API client", () => {
  it("refuses at connect time a base URL whose name resolves to a private address, with nothing sent", async () => {
    let received = 0;
    const server = http.createServer((_req, res) => {
      received++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    vi.stubEnv("ALLOW_PRIVATE_ENDPOINTS", "");
    try {
      const config: EndpointConfig = {
        id: "e",
        baseUrl: `http://localhost:${(server.address() as AddressInfo).port}/v1`,
        model: "m",
        apiKey: null,
        imageDetail: "low",
        temperature: 0,
        maxConcurrency: 1,
        requestsPerMinute: null,
        timeoutSeconds: 5,
        structuredOutput: false,
        pricePer1kInput: null,
        pricePer1kOutput: null,
        supportsBatchApi: true,
      };
      const error = await openAiBatchApi(config)
        .batches.retrieve("batch_1")
        .catch((e: unknown) => e);
      expect((error as { cause?: unknown }).cause).toBeInstanceOf(EndpointNotAllowedError);
      expect(String((error as { cause: Error }).cause.message)).toMatch(/localhost resolves to a loopback address/);
      expect(received).toBe(0);
    } finally {
      vi.unstubAllEnvs();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("batch-mode runs against the stub's Batch API", () => {
  it(
    "a whole hallucination run settles with the online run's scores, at half the price, dependent steps in follow-up batches",
    { timeout: 120_000 },
    async () => {
      const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 3 });
      // Different model names: the cache key has the model, the stub's hallucination answers do not.
      const online = await createRun(
        { prisma, queue: inlineJudgeQueue(judgeDeps), pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        createRunSchema(builtInCatalogue()).parse({
          pipeline: "hallucination",
          endpointId: await endpoint(projectId, "stub-online", false),
        }),
      );
      expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: online.id } })).status).toBe("done");
      const onlineRequests = stub.requests.length;
      expect(onlineRequests).toBe(2 * STEPS_PER_VIDEO);

      const driver = batchDriver();
      const batchEndpoint = await endpoint(projectId, "stub-batch", true);
      const run = await startBatchRun(driver, projectId, batchEndpoint);
      await driver.settle(run.id);

      const stored = await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } });
      expect(stored.status).toBe("done");
      expect(stored.batchMode).toBe(true);
      // Not one chat completion: every call went in a batch line.
      expect(stub.requests.length).toBe(onlineRequests);
      expect(stub.batchLines).toHaveLength(2 * STEPS_PER_VIDEO);
      // Steps after their inputs went in follow-up batches.
      const batches = await prisma.judgeBatch.findMany({ where: { runId: run.id }, orderBy: { number: "asc" } });
      expect(batches.length).toBeGreaterThanOrEqual(3);
      expect(batches.length).toBe(stub.batches.size);
      expect(batches.every((b) => b.status === "completed" && b.ingestedAt !== null && b.failedCount === 0)).toBe(true);

      expect(await scoresOf(run.id)).toEqual(await scoresOf(online.id));
      expect((await scoresOf(run.id)).length).toBeGreaterThan(0);
      // Each batch call records what it showed and its line's body size: the online call's (the models' names are as long).
      const sentOf = async (runId: string) =>
        (await prisma.llmCall.findMany({ where: { runId }, select: { bytesSent: true, saw: true } }))
          .map((c) => `${c.bytesSent} ${JSON.stringify(c.saw)}`)
          .sort();
      expect("stub-batch".length).toBe("stub-online".length - 1);
      const onlineSent = (await sentOf(online.id)).map((c) => c.replace(/^\d+/, (n) => String(Number(n) - 1)));
      expect(await sentOf(run.id)).toEqual(onlineSent.sort());
      expect((await sentOf(run.id)).every((c) => !c.startsWith("0 "))).toBe(true);
      for (const videoId of videoIds) {
        const [a, b] = await Promise.all(
          [online.id, run.id].map((runId) =>
            prisma.runVideo.findUniqueOrThrow({ where: { runId_videoId: { runId, videoId } } }),
          ),
        );
        expect(b!.status).toBe("done");
        expect(b!.summary).toEqual(a!.summary);
      }
      const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
      const onlineStatus = await getRunStatus(prisma, await accessOfRun(prisma, owner, online.id), online.id);
      expect(status.steps.done).toBe(2 * STEPS_PER_VIDEO);
      expect(status.calls.total).toBe(2 * STEPS_PER_VIDEO);
      expect(status.tokens).toEqual(onlineStatus.tokens);
      expect(status.costUsd).toBeCloseTo(onlineStatus.costUsd! / 2, 10);
      expect(status.batch).toMatchObject({
        number: batches.length,
        status: "completed",
        total: batches.at(-1)!.requestCount,
      });
      // Each step was attempted once: waiting for a batch is not an attempt.
      expect(await prisma.stepResult.count({ where: { runId: run.id, attempts: { not: 1 } } })).toBe(0);

      // The same run again is answered from the cache: no batch at all.
      const again = await startBatchRun(driver, projectId, batchEndpoint);
      await driver.settle(again.id);
      expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: again.id } })).status).toBe("done");
      expect(stub.batches.size).toBe(batches.length);
      expect(await scoresOf(again.id)).toHaveLength((await scoresOf(run.id)).length);
    },
  );

  it(
    "failed lines become step errors with the line's error, and a re-run sends only what was not answered",
    { timeout: 120_000 },
    async () => {
      const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 3 });
      const endpointId = await endpoint(projectId, "stub-batch-failing", true);
      stub.setBatchOptions({ failedShare: 0.25 });
      const driver = batchDriver();
      const first = await startBatchRun(driver, projectId, endpointId);
      await driver.settle(first.id);

      expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("done");
      const failedLines = stub.batchLines.filter((l) => l.fault === "failed_line");
      expect(failedLines.length).toBeGreaterThan(0);
      const failedSteps = await prisma.stepResult.findMany({ where: { runId: first.id, status: "failed" } });
      // Every failed line is a failed step with the line's error, none dropped.
      expect(failedSteps).toHaveLength(failedLines.length);
      // In the app's words for every member; what the provider said is kept for owners, on the call.
      for (const step of failedSteps) expect(step.error).toContain("Batch line failed (server_error).");
      expect(failedSteps.some((s) => s.error!.includes("this batch line failed"))).toBe(false);
      const errorCalls = await prisma.llmCall.findMany({ where: { runId: first.id, error: { not: null } } });
      expect(errorCalls.map((c) => c.stepResultId).sort()).toEqual(failedSteps.map((s) => s.id).sort());
      expect(errorCalls.every((c) => c.errorExcerpt === "stub: this batch line failed")).toBe(true);
      expect(
        await prisma.stepResult.count({ where: { runId: first.id, status: { in: ["pending", "running"] } } }),
      ).toBe(0);
      const answered = new Set(stub.batchLines.filter((l) => l.status === 200).map(lineKey));
      const failed = new Set(failedLines.map(lineKey));

      stub.setBatchOptions({ failedShare: 0 });
      const sentBefore = stub.batchLines.length;
      const rerun = await startBatchRun(driver, projectId, endpointId);
      await driver.settle(rerun.id);
      const resent = stub.batchLines.slice(sentBefore);
      expect(await prisma.stepResult.count({ where: { runId: rerun.id, status: "done" } })).toBe(2 * STEPS_PER_VIDEO);
      // Answers the first run got are never asked again; every line that failed is.
      expect(resent.filter((l) => answered.has(lineKey(l)))).toEqual([]);
      for (const key of failed) expect(resent.map(lineKey)).toContain(key);
    },
  );

  it(
    "a batch whose input file would pass the size limit is split: the lines past it go in the next batch, and every line is answered once",
    { timeout: 120_000 },
    async () => {
      const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 3 });
      const endpointId = await endpoint(projectId, "stub-batch-split", true);
      // A limit below any line: each file holds the one line that must go somewhere.
      const driver = batchDriver({ maxFileBytes: 1 });
      const run = await startBatchRun(driver, projectId, endpointId);
      await driver.settle(run.id, 200);

      expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("done");
      const sent = [...stub.batches.values()].filter((b) => b.metadata?.framejury_run === run.id);
      expect(sent.length).toBe(STEPS_PER_VIDEO);
      expect(sent.every((b) => b.lineCount === 1 && b.status === "completed")).toBe(true);
      const batches = await prisma.judgeBatch.findMany({ where: { runId: run.id } });
      expect(batches).toHaveLength(STEPS_PER_VIDEO);
      expect(batches.every((b) => b.requestCount === 1 && b.ingestedAt !== null)).toBe(true);
      expect(await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })).toBe(STEPS_PER_VIDEO);
    },
  );

  it(
    "an answer that fails validation gets its repair in a follow-up batch, and the step is done with both calls",
    { timeout: 120_000 },
    async () => {
      const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 3 });
      const endpointId = await endpoint(projectId, "stub-batch-repair", true);
      stub.addFault({
        fault: { kind: "content", content: "no json here" },
        match: "Identify objects in the foreground of the frame",
        times: 1,
      });
      const driver = batchDriver();
      const run = await startBatchRun(driver, projectId, endpointId);
      await driver.settle(run.id);

      expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("done");
      expect(await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })).toBe(STEPS_PER_VIDEO);
      const faulted = stub.batchLines.find((l) => l.fault === "content")!;
      const repair = stub.batchLines.find((l) => l.text.includes("no json here"))!;
      expect(repair).toBeDefined();
      const batchNumber = async (providerBatchId: string) =>
        (await prisma.judgeBatch.findFirstOrThrow({ where: { providerBatchId } })).number;
      expect(await batchNumber(repair.batchId)).toBeGreaterThan(await batchNumber(faulted.batchId));
      const repairedStep = await prisma.batchRequest.findUniqueOrThrow({
        where: { id: repair.customId },
        select: { stepResultId: true },
      });
      const calls = await prisma.llmCall.findMany({
        where: { stepResultId: repairedStep.stepResultId },
        orderBy: { createdAt: "asc" },
      });
      // One call row per request: the first answer read again in the repair's pass is not recorded twice.
      expect(calls.map((c) => c.isRepair)).toEqual([false, true]);
      expect(calls[0]!.responseText).toBe("no json here");
      const step = await prisma.stepResult.findUniqueOrThrow({ where: { id: repairedStep.stepResultId } });
      expect(step.status).toBe("done");
      expect(step.attempts).toBe(1);
    },
  );

  it("cancelling the run cancels its open batch at the provider", { timeout: 60_000 }, async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 3 });
    const endpointId = await endpoint(projectId, "stub-batch-cancel", true);
    stub.setBatchOptions({ completionDelayMs: 60_000 });
    const driver = batchDriver();
    const run = await startBatchRun(driver, projectId, endpointId);
    expect(await driver.check(run.id)).toBe("again");
    const sent = await prisma.judgeBatch.findFirstOrThrow({ where: { runId: run.id } });
    expect(sent.status).toBe("in_progress");
    expect(stub.batches.get(sent.providerBatchId!)!.status).toBe("in_progress");
    const progress = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
    expect(progress.batch).toMatchObject({ number: 1, status: "in_progress", total: sent.requestCount });

    await cancelRun(prisma, await accessOfRun(prisma, owner, run.id, "runs.manage"), run.id);
    expect(await driver.check(run.id)).toBe("finished");
    expect(stub.batches.get(sent.providerBatchId!)!.status).toBe("cancelling");
    expect(stub.batches.get(sent.providerBatchId!)!.cancelledAt).not.toBeNull();
    const closed = await prisma.judgeBatch.findUniqueOrThrow({ where: { id: sent.id } });
    expect(closed.status).toBe("cancelling");
    expect(closed.ingestedAt).not.toBeNull();
    expect(await prisma.stepResult.count({ where: { runId: run.id, status: { in: ["pending", "running"] } } })).toBe(0);
    expect(stub.batchLines).toHaveLength(0);
  });

  it("refuses batch mode for an endpoint without the Batch API", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const endpointId = await endpoint(projectId, "stub-no-batch", false);
    await expect(startBatchRun(batchDriver(), projectId, endpointId)).rejects.toThrow(/does not support the Batch API/);
  });
});
