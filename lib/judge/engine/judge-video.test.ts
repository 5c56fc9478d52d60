import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createEndpoint } from "../endpoints/endpoints";

import { NO_PROMPT_REASON } from "../../tasks/hallucination/pipeline";
import { createRun, getRunStatus } from "../runs/runs";
import { judgeVideo, type JudgeDeps } from "./judge-video";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun, accessOfVideo } from "../../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;
const sleeps: number[] = [];

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.reset();
  sleeps.length = 0;
});

const deps = testJudgeDeps({
  retryPolicy: { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 100 },
  sleep: async (ms) => {
    sleeps.push(ms);
  },
});
const inlineQueue = inlineJudgeQueue(deps);

async function setup(
  options: { videos?: number; keyFrames?: number; timeoutSeconds?: number; prompt?: null; allBlack?: boolean } = {},
) {
  const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
    videoCount: options.videos ?? 1,
    keyFrames: options.keyFrames ?? 2,
    prompt: options.prompt,
    allBlack: options.allBlack,
  });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: "sk-stub-secret",
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 8,
    requestsPerMinute: null,
    timeoutSeconds: 120,
    structuredOutput: true,
    pricePer1kInput: 0.01,
    pricePer1kOutput: 0.03,
  });
  if (options.timeoutSeconds)
    await prisma.judgeEndpoint.update({ where: { id: endpoint.id }, data: { timeoutSeconds: options.timeoutSeconds } });
  return { projectId, videoIds, endpointId: endpoint.id };
}

const run = async (projectId: string, endpointId: string) =>
  createRun(
    { prisma, queue: inlineQueue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "hallucination",
      endpointId,
    },
  );
const step = (runId: string, stepId: string, scopeIndex = 0, videoId?: string) =>
  prisma.stepResult.findFirstOrThrow({
    where: { runId, stepId, scopeIndex, ...(videoId ? { videoId } : {}) },
    include: { calls: { orderBy: { createdAt: "asc" } }, scores: true },
  });

describe("the hallucination pipeline against the stub LLM over HTTP", () => {
  it("runs every step of two videos, stores scores and aggregates, and an identical re-run makes no calls", async () => {
    const { projectId, videoIds, endpointId } = await setup({ videos: 2, keyFrames: 2 });
    const first = await run(projectId, endpointId);
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, first.id), first.id);
    // Per video: 2 static KG + 2 dynamic KG + summary + inconsistency + 2 static + 2 dynamic hallucination.
    expect(status.steps).toMatchObject({ total: 20, done: 20, failed: 0, parse_failed: 0 });
    expect(status.status).toBe("done");
    expect(status.calls.total).toBe(20);
    expect(stub.requests).toHaveLength(20);
    expect(status.tokens.prompt).toBeGreaterThan(0);
    expect(status.costUsd).toBeGreaterThan(0);

    // Frames went along: one per key-frame step, the cluster's three per cluster step.
    expect(stub.requests.filter((r) => r.rule === "static-knowledge-graph").map((r) => r.imageCount)).toEqual([
      1, 1, 1, 1,
    ]);
    expect(stub.requests.filter((r) => r.rule === "dynamic-hallucination").map((r) => r.imageCount)).toEqual([
      3, 3, 3, 3,
    ]);
    // The dynamic KG prompt carries its key frame's static KG; the summary all changes.
    // Both steps of the same video: the two videos' frames differ, and so do their graphs.
    const kg = await step(first.id, "static_kg", 0, videoIds[0]);
    const dynamicCall = (await step(first.id, "dynamic_kg", 0, videoIds[0])).calls[0]!;
    expect((dynamicCall.request as { text: string }).text).toContain(
      JSON.stringify((kg.output as { objects: string[] }).objects),
    );

    const scores = await prisma.score.findMany({ where: { runId: first.id, videoId: videoIds[0] } });
    expect(scores).toHaveLength(2 * 10 + 2 * 9 + 1);
    expect(scores.every((s) => s.value >= 0 && s.value <= 10)).toBe(true);
    const summary = (await prisma.runVideo.findFirstOrThrow({ where: { runId: first.id, videoId: videoIds[0] } }))
      .summary as Record<string, number | boolean | null>;
    expect(summary.complete).toBe(true);
    expect(summary.overall).toBeCloseTo(
      100 - 2 * (summary.I as number) - 4 * (summary.S as number) - 4 * (summary.D as number),
      6,
    );
    expect(typeof summary.hallucination).toBe("boolean");
    // The headline metrics are stored as run_metric rows, the verdict as 1/0.
    const metrics = await prisma.runMetric.findMany({ where: { runId: first.id, videoId: videoIds[0] } });
    expect(Object.fromEntries(metrics.map((m) => [m.metric, m.value]))).toEqual({
      S: summary.S,
      D: summary.D,
      I: summary.I,
      overall: summary.overall,
      verdict: summary.hallucination ? 1 : 0,
    });
    expect(metrics.every((m) => m.itemId === "")).toBe(true);
    expect((await step(first.id, "static_hallucination", 1)).templateHash).toMatch(/^[0-9a-f]{64}$/);

    stub.reset();
    const second = await run(projectId, endpointId);
    const again = await getRunStatus(prisma, await accessOfRun(prisma, owner, second.id), second.id);
    expect(again.steps.done).toBe(20);
    expect(stub.requests).toHaveLength(0);
    expect(again.calls).toMatchObject({ total: 20, cached: 20 });
    const secondSummary = (
      await prisma.runVideo.findFirstOrThrow({ where: { runId: second.id, videoId: videoIds[0] } })
    ).summary;
    expect(secondSummary).toEqual(summary);
  });

  it("says once that the video winds down as its last step starts, before that step's call goes out", async () => {
    const { projectId, videoIds, endpointId } = await setup({ keyFrames: 2 });
    // Queued nowhere: the video is judged here, with a windDown to watch.
    const created = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId },
    );
    // The summary answers slowly, so every other call has long gone out when the inconsistency step, the last, starts.
    stub.addFault({ fault: { kind: "latency", ms: 300 }, match: "generate a brief and accurate description" });
    const requestsAtWindDown: number[] = [];
    const outcome = await judgeVideo(deps, { runId: created.id, videoId: videoIds[0]! }, undefined, {
      windDown: () => requestsAtWindDown.push(stub.requests.length),
    });
    expect(outcome).toBe("done");
    // 10 steps with 2 key frames: said once, after 9 calls went out and before the 10th.
    expect(requestsAtWindDown).toEqual([9]);
    expect(stub.requests).toHaveLength(10);
  });

  it("starts no further step once its job was handed out again: ends superseded when its calls in flight have answered, and the next attempt judges the rest, each call sent once", async () => {
    const { projectId, videoIds, endpointId } = await setup({ keyFrames: 2 });
    const created = await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId },
    );
    const job = { runId: created.id, videoId: videoIds[0]! };
    const superseded = new AbortController();
    // Superseded as soon as the first steps are set up: they go out and answer, nothing after them starts.
    const first = await judgeVideo(deps, job, undefined, {
      ready: () => superseded.abort(),
      superseded: superseded.signal,
    });
    expect(first).toBe("superseded");
    const sentByFirst = stub.requests.length;
    expect(sentByFirst).toBeGreaterThan(0);
    expect(sentByFirst).toBeLessThan(10);
    const second = await judgeVideo(deps, job, undefined, { superseded: new AbortController().signal });
    expect(second).toBe("done");
    // 10 steps with 2 key frames, each call sent by one attempt only.
    expect(stub.requests).toHaveLength(10);
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, created.id), created.id)).status).toBe("done");
  });

  it("says once that the video is set up, when its first steps have looked up their answers and before their calls go out", async () => {
    const { projectId, videoIds, endpointId } = await setup({ keyFrames: 2 });
    const run = async () =>
      createRun(
        { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        {
          pipeline: "hallucination",
          endpointId,
        },
      );
    const requestsAtReady: number[] = [];
    const first = await run();
    expect(
      await judgeVideo(deps, { runId: first.id, videoId: videoIds[0]! }, undefined, {
        ready: () => requestsAtReady.push(stub.requests.length),
      }),
    ).toBe("done");
    expect(requestsAtReady).toEqual([0]);
    expect(stub.requests).toHaveLength(10);
    // Answered from the cache, with no call at all: set up all the same.
    const second = await run();
    expect(
      await judgeVideo(deps, { runId: second.id, videoId: videoIds[0]! }, undefined, {
        ready: () => requestsAtReady.push(stub.requests.length),
      }),
    ).toBe("done");
    expect(requestsAtReady).toEqual([0, 10]);
    expect(stub.requests).toHaveLength(10);
  });

  it("never sends or returns the endpoint's API key except to the endpoint", async () => {
    const { projectId, endpointId } = await setup();
    const row = await prisma.judgeEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(row.apiKeyEncrypted).not.toContain("sk-stub-secret");
    const { id } = await run(projectId, endpointId);
    const calls = await prisma.llmCall.findMany({ where: { runId: id } });
    expect(JSON.stringify(calls)).not.toContain("sk-stub-secret");
  });

  it("stores a step whose answer carries NULs in its model and content, and sends each call once", async () => {
    const { projectId, endpointId } = await setup({ keyFrames: 1 });
    stub.addFault({
      fault: {
        kind: "content",
        content: '{"objects": ["ball\u0000", "table"], "relations": [["ball", "on\u0000", "table"]]}\u0000',
        model: "gpt\u0000x",
      },
      match: "Identify objects in the foreground",
    });
    const { id } = await run(projectId, endpointId);
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, id), id);
    expect(status.steps).toMatchObject({ total: 6, done: 6, failed: 0 });
    expect(stub.requests).toHaveLength(6);
    const kg = await step(id, "static_kg");
    expect(kg.output).toEqual({ objects: ["ball", "table"], relations: [["ball", "on", "table"]] });
    expect(kg.calls.map((c) => [c.reportedModel, c.responseText?.includes("\u0000")])).toEqual([["gptx", false]]);
  });

  it("repairs malformed and truncated answers with one follow-up, and takes prose-wrapped JSON as is", async () => {
    const { projectId, endpointId } = await setup({ keyFrames: 1 });
    stub.addFault({ fault: { kind: "malformed" }, match: "Identify objects in the foreground" });
    stub.addFault({
      fault: { kind: "content", content: '{"changes": {"ball": "rolls' },
      match: "Identify the changes or consistencies",
    });
    stub.addFault({ fault: { kind: "truncated" }, match: "generate a brief and accurate description" });
    stub.addFault({ fault: { kind: "prose" }, match: "compare the inconsistency" });
    const { id } = await run(projectId, endpointId);
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, id), id);
    expect(status.steps).toMatchObject({ total: 6, done: 6 });
    // malformed HTTP body: retried by the client, no repair needed
    expect((await step(id, "static_kg")).calls).toHaveLength(1);
    expect(sleeps.length).toBeGreaterThanOrEqual(1);
    const dynamic = await step(id, "dynamic_kg");
    expect(dynamic.calls.map((c) => c.isRepair)).toEqual([false, true]);
    expect((dynamic.calls[1]!.request as { followUp: { correction: string } }).followUp.correction).toMatch(
      /did not match|format|JSON/i,
    );
    const summary = await step(id, "video_summary");
    expect(summary.calls.map((c) => [c.isRepair, c.finishReason])).toEqual([
      [false, "length"],
      [true, "stop"],
    ]);
    const inconsistency = await step(id, "inconsistency");
    expect(inconsistency.calls).toHaveLength(1);
    expect(inconsistency.scores).toHaveLength(1);
  });

  it("stores parse_failed with the raw text when the repair fails too, never a made-up score, and skips dependants", async () => {
    const { projectId, endpointId } = await setup({ keyFrames: 1 });
    stub.addFault({
      fault: {
        kind: "content",
        content:
          '{"scores": {"s1": 11, "s2": 1, "s3": 1, "s4": 1, "s5": 1, "s6": 1, "s7": 1, "s8": 1, "s9": 1, "s10": 1}}',
      },
      match: "static hallucinations",
      times: 2,
    });
    stub.addFault({ fault: { kind: "refusal" }, match: "Identify the changes or consistencies", times: 2 });
    const { id } = await run(projectId, endpointId);
    const staticH = await step(id, "static_hallucination");
    expect(staticH.status).toBe("parse_failed");
    expect(staticH.rawText).toContain('"s1": 11');
    expect(staticH.error).toMatch(/s1/);
    expect(staticH.scores).toEqual([]);
    expect(staticH.calls).toHaveLength(2);

    const dynamicKg = await step(id, "dynamic_kg");
    expect(dynamicKg.status).toBe("parse_failed");
    expect(dynamicKg.error).toMatch(/refus/i);
    for (const dependant of ["dynamic_hallucination", "video_summary", "inconsistency"]) {
      const s = await step(id, dependant);
      expect(s.status).toBe("skipped");
      expect(s.calls).toHaveLength(0);
    }
    const summary = (await prisma.runVideo.findFirstOrThrow({ where: { runId: id } })).summary as {
      S: number | null;
      D: number | null;
      I: number | null;
      overall: number | null;
      complete: boolean;
    };
    expect(summary).toMatchObject({ S: null, D: null, I: null, overall: null, complete: false });
    // Nothing that failed was cached: the next run asks again.
    stub.reset();
    const again = await run(projectId, endpointId);
    expect((await step(again.id, "static_hallucination")).status).toBe("done");
    expect(stub.requests.some((r) => r.rule === "static-hallucination")).toBe(true);
  });

  it("waits out 429s (honouring retry-after) and 500s, and retries a hanging request after its timeout", async () => {
    const { projectId, endpointId } = await setup({ keyFrames: 1, timeoutSeconds: 1 });
    stub.addFault({
      fault: { kind: "status", status: 429, retryAfter: 7 },
      match: "Identify objects in the foreground",
    });
    stub.addFault({ fault: { kind: "status", status: 500 }, match: "Identify the changes or consistencies" });
    stub.addFault({ fault: { kind: "hang" }, match: "compare the inconsistency" });
    const { id } = await run(projectId, endpointId);
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, id), id)).steps).toMatchObject({
      total: 6,
      done: 6,
    });
    expect(sleeps).toContain(7000);
    expect(
      stub.requests
        .filter((r) => r.fault !== null)
        .map((r) => r.fault)
        .sort(),
    ).toEqual(["hang", "status", "status"]);
  });

  it("fails a step after the last retry, keeping the error, and counts it", async () => {
    const { projectId, endpointId } = await setup({ keyFrames: 1 });
    stub.addFault({ fault: { kind: "status", status: 503 }, match: "compare the inconsistency", times: 10 });
    const { id } = await run(projectId, endpointId);
    const inconsistency = await step(id, "inconsistency");
    expect(inconsistency.status).toBe("failed");
    expect(inconsistency.error).toMatch(/503/);
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, id), id);
    expect(status.steps.failed).toBe(1);
    expect(status.calls.errors).toBe(1);
    expect(status.status).toBe("done");
  });
});

describe("the response cache", () => {
  it("pays a repaired answer once: after a run with prose, truncated, refusal and out-of-range answers, the re-run calls only for the steps that did not finish", async () => {
    const { projectId, endpointId } = await setup({ videos: 2, keyFrames: 2 });
    stub.addFault({ fault: { kind: "prose" }, match: "Identify objects in the foreground" });
    stub.addFault({ fault: { kind: "refusal" }, match: "Identify the changes or consistencies" });
    stub.addFault({ fault: { kind: "truncated" }, match: "generate a brief and accurate description" });
    const outOfRange =
      '{"scores": {"s1": 11, "s2": 1, "s3": 1, "s4": 1, "s5": 1, "s6": 1, "s7": 1, "s8": 1, "s9": 1, "s10": 1}}';
    stub.addFault({ fault: { kind: "content", content: outOfRange }, match: "static hallucinations" });
    // Every inconsistency answer (both videos, first try and repair) is out of range: those steps never finish.
    stub.addFault({
      fault: { kind: "content", content: '{"score": 11, "reason": "x"}' },
      match: "compare the inconsistency",
      times: 4,
    });
    const first = await run(projectId, endpointId);
    expect(
      stub.requests
        .filter((r) => r.fault !== null)
        .map((r) => r.fault)
        .sort(),
    ).toEqual(["content", "content", "content", "content", "content", "prose", "refusal", "truncated"]);

    const RULE_OF_STEP: Record<string, string> = {
      static_kg: "static-knowledge-graph",
      dynamic_kg: "dynamic-knowledge-graph",
      video_summary: "video-summary",
      inconsistency: "inconsistency-check",
      static_hallucination: "static-hallucination",
      dynamic_hallucination: "dynamic-hallucination",
    };
    const firstSteps = await prisma.stepResult.findMany({ where: { runId: first.id }, include: { calls: true } });
    const unfinished = firstSteps.filter((s) => s.status !== "done");
    const repaired = firstSteps.filter((s) => s.status === "done" && s.calls.some((c) => c.isRepair));
    // The refused, truncated and out-of-range answers were each repaired into a finished step.
    expect(repaired.map((s) => s.stepId).sort()).toEqual(["dynamic_kg", "static_hallucination", "video_summary"]);
    expect(unfinished.length).toBeGreaterThan(0);
    expect(unfinished.every((s) => s.stepId === "inconsistency" && s.status === "parse_failed")).toBe(true);
    // Errors and invalid answers were not cached.
    expect(await prisma.responseCache.count({ where: { responseText: { contains: '"s1": 11' } } })).toBe(0);
    expect(await prisma.responseCache.count({ where: { responseText: { contains: '"score": 11' } } })).toBe(0);

    stub.reset();
    const second = await run(projectId, endpointId);
    // One call per step that did not finish, and none for any other step, repaired or not.
    expect(stub.requests.map((r) => r.rule).sort()).toEqual(unfinished.map((s) => RULE_OF_STEP[s.stepId]).sort());
    const secondSteps = await prisma.stepResult.findMany({ where: { runId: second.id }, include: { calls: true } });
    expect(secondSteps.filter((s) => s.status !== "done")).toEqual([]);
    for (const before of repaired) {
      const again = secondSteps.find(
        (s) => s.videoId === before.videoId && s.stepId === before.stepId && s.scopeIndex === before.scopeIndex,
      )!;
      expect(again.calls.map((c) => ({ cached: c.cached, isRepair: c.isRepair }))).toEqual([
        { cached: true, isRepair: false },
      ]);
      expect(again.output).toEqual(before.output);
    }
  });

  it("replaces an invalid answer found in the cache (cached before answers had to be valid) with the repaired one, so it is repaired once", async () => {
    const { projectId, endpointId } = await setup({ keyFrames: 1 });
    // After the setup: the previous test's cache entries (possibly the same answer text, for its own videos)
    // were all written before it, so only this run's entries are newer.
    const testStarted = new Date();
    const first = await run(projectId, endpointId);
    const inconsistency = await step(first.id, "inconsistency");
    // The entry this run cached for the step (other tests' videos may have got the same answer before).
    const entry = await prisma.responseCache.findFirstOrThrow({
      where: { responseText: inconsistency.rawText!, createdAt: { gte: testStarted } },
    });
    // What the engine once stored: an answer that fails validation, under the request's key.
    await prisma.responseCache.update({
      where: { key: entry.key },
      data: { responseText: '{"score": 11, "reason": "x"}' },
    });

    stub.reset();
    const second = await run(projectId, endpointId);
    expect((await step(second.id, "inconsistency")).calls.map((c) => [c.cached, c.isRepair])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(stub.requests.map((r) => r.rule)).toEqual(["inconsistency-check"]);
    expect((await prisma.responseCache.findUniqueOrThrow({ where: { key: entry.key } })).responseText).not.toContain(
      '"score": 11',
    );

    stub.reset();
    const third = await run(projectId, endpointId);
    expect(stub.requests).toHaveLength(0);
    expect((await step(third.id, "inconsistency")).output).toEqual((await step(second.id, "inconsistency")).output);
  });

  it("finishes every step of all-black clips, whose identical key frames finish together with the same cache key", async () => {
    // Two black clips judged at once: their static KGs (and the dynamic KGs and summaries built on
    // them) are identical requests. The stub's latency holds every answer until all of them were
    // sent (so none is answered from the cache), then they come back and are stored together.
    const slow = await startStubLlm({ latencyMs: 400 });
    try {
      const { projectId, endpointId } = await setup({ videos: 2, keyFrames: 3, allBlack: true });
      await prisma.judgeEndpoint.update({
        where: { id: endpointId },
        data: { baseUrl: slow.baseURL, maxConcurrency: 16 },
      });
      const { id } = await run(projectId, endpointId);
      const steps = await prisma.stepResult.findMany({
        where: { runId: id },
        select: { stepId: true, scopeIndex: true, status: true, error: true },
      });
      expect(steps).toHaveLength(2 * (3 + 3 + 1 + 1 + 3 + 3));
      expect(steps.filter((s) => s.status !== "done")).toEqual([]);
      // The static KG really was one request sent several times at once, every copy answered.
      expect(slow.requests.filter((r) => r.rule === "static-knowledge-graph").length).toBeGreaterThan(1);
    } finally {
      await slow.close();
    }
  });
});

describe("step errors", () => {
  it("stores a thrown error as its class and a short message, without the stack, server paths or code excerpts, which go to the log", async () => {
    const { projectId, endpointId } = await setup({ keyFrames: 1 });
    const logged: string[] = [];
    // Made like Prisma's errors, whose message quotes the calling file and its code.
    class PrismaClientInitializationError extends Error {}
    const thrown = Object.assign(
      new PrismaClientInitializationError(
        "\nInvalid `prisma.frame.findMany()` invocation in\n/srv/framejury/lib/judge/engine/judge-video.ts:312:7\n\n  309 const frames = [];\n→ 312 await prisma.frame.findMany({\nCan't reach database server at `db.internal:5432`",
      ),
      { code: "P1001" },
    );
    const failingDeps: JudgeDeps = {
      ...deps,
      storage: {
        ...deps.storage,
        get: async () => Promise.reject(thrown),
        getBytes: async () => Promise.reject(thrown),
      } as JudgeDeps["storage"],
      log: (line) => logged.push(line),
    };
    const queued: { runId: string; videoId: string }[] = [];
    const { id } = await createRun(
      {
        prisma,
        queue: { enqueue: async (jobs) => void queued.push(...jobs) },
        pipelines: builtInCatalogue().pipelines,
      },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      {
        pipeline: "hallucination",
        endpointId,
      },
    );
    await judgeVideo(failingDeps, queued[0]!);

    const staticKg = await step(id, "static_kg");
    expect(staticKg.status).toBe("failed");
    expect(staticKg.error).toBe(
      "PrismaClientInitializationError P1001: Can't reach database server at `db.internal:5432` (details are in the worker log)",
    );
    for (const leak of ["/srv/framejury", "judge-video.ts", "→", "309", "    at "])
      expect(staticKg.error).not.toContain(leak);
    // The whole error, stack included, is in the server log.
    expect(logged.join("\n")).toContain("judge-video.ts:312:7");
    expect(logged.join("\n")).toMatch(/\n\s+at /);
    // The API every member reads gives the same short message.
    const { videoScores } = await import("../runs/runs");
    const viewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
    const seen = await videoScores(
      prisma,
      await accessOfVideo(prisma, viewer, queued[0]!.videoId),
      queued[0]!.videoId,
      id,
    );
    expect(seen.steps.find((s) => s.stepId === "static_kg")!.error).toBe(staticKg.error);
  });

  it("keeps an endpoint's error body as an owner-only excerpt of the call, and its sanitised message in the step error", async () => {
    const { projectId, endpointId } = await setup({ keyFrames: 1 });
    stub.addFault({
      fault: { kind: "status", status: 400, message: "Invalid image_url: unsupported MIME type image/x-test" },
      match: "Identify objects in the foreground",
    });
    const { id } = await run(projectId, endpointId);
    const staticKg = await step(id, "static_kg");
    expect(staticKg.status).toBe("failed");
    expect(staticKg.error).toBe(
      'The endpoint refused the request (400). The endpoint said: "Invalid image_url: unsupported MIME type image/x-test"',
    );
    expect(staticKg.calls[0]!.errorExcerpt).toMatch(/Invalid image_url: unsupported MIME type/);

    const { inspectRunVideo } = await import("../calls/call-inspector");
    const videoId = staticKg.videoId;
    const excerptsFor = async (actor: Actor) =>
      (await inspectRunVideo(prisma, await projectAccess(prisma, actor, projectId, "project.view"), id, videoId)).steps
        .flatMap((s) => s.calls.map((c) => c.errorExcerpt))
        .filter((e) => e !== null);
    expect(await excerptsFor(owner)).toEqual([expect.stringMatching(/unsupported MIME type/)]);
    for (const role of ["viewer", "reviewer"] as const) {
      const member = await makeUser();
      await prisma.projectMember.create({ data: { projectId, userId: member.userId, role } });
      expect(await excerptsFor(member)).toEqual([]);
    }
  });
});

describe("a video without a prompt", () => {
  it("skips the steps that compare with the prompt, with that reason and no call; KGs and summary run; aggregates are incomplete", async () => {
    const { projectId, videoIds, endpointId } = await setup({ keyFrames: 2, prompt: null });
    const { id } = await run(projectId, endpointId);

    for (const [stepId, scopes] of [
      ["inconsistency", 1],
      ["static_hallucination", 2],
      ["dynamic_hallucination", 2],
    ] as const) {
      for (let scopeIndex = 0; scopeIndex < scopes; scopeIndex++) {
        const skipped = await step(id, stepId, scopeIndex);
        expect(skipped.status).toBe("skipped");
        expect(skipped.error).toBe(`Not run: ${NO_PROMPT_REASON}.`);
        expect(skipped.calls).toHaveLength(0);
        expect(skipped.scores).toHaveLength(0);
      }
    }
    for (const stepId of ["static_kg", "dynamic_kg", "video_summary"])
      expect((await step(id, stepId)).status).toBe("done");
    // Only the frame-reading steps reached the LLM: 2 static KGs, 2 dynamic KGs, the summary.
    expect(stub.requests.map((r) => r.rule).sort()).toEqual(
      [
        "dynamic-knowledge-graph",
        "dynamic-knowledge-graph",
        "static-knowledge-graph",
        "static-knowledge-graph",
        "video-summary",
      ].sort(),
    );
    expect(stub.requests.some((r) => r.text.includes('depicts ""'))).toBe(false);

    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, id), id);
    expect(status).toMatchObject({ status: "done", steps: { total: 10, done: 5, skipped: 5, failed: 0 } });
    const runVideo = await prisma.runVideo.findFirstOrThrow({ where: { runId: id, videoId: videoIds[0] } });
    expect(runVideo.status).toBe("done");
    // No metric could be computed, so none is stored (an unknown value is no row, never a default).
    expect(await prisma.runMetric.findMany({ where: { runId: id, videoId: videoIds[0] } })).toEqual([]);
    expect(runVideo.summary).toMatchObject({
      S: null,
      D: null,
      I: null,
      overall: null,
      hallucination: null,
      complete: false,
      missing: { inconsistency: true },
    });
  });
});

describe("cancelling a run", () => {
  it("stops a video mid-run: no further calls, unfinished steps cancelled, the run marked cancelled", async () => {
    const slow = await startStubLlm({ latencyMs: 150 });
    try {
      const { projectId, videoIds } = await setup({ keyFrames: 3 });
      await prisma.judgeEndpoint.updateMany({
        where: { projectId },
        data: { baseUrl: slow.baseURL, maxConcurrency: 2 },
      });
      const endpointId = (await prisma.judgeEndpoint.findFirstOrThrow({ where: { projectId } })).id;
      const queued: { runId: string; videoId: string }[] = [];
      const { id } = await createRun(
        {
          prisma,
          queue: { enqueue: async (jobs) => void queued.push(...jobs) },
          pipelines: builtInCatalogue().pipelines,
        },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        {
          pipeline: "hallucination",
          endpointId,
        },
      );
      const working = judgeVideo(deps, queued[0]!);
      while (slow.requests.length < 2) await new Promise((r) => setTimeout(r, 20));
      const { cancelRun } = await import("../runs/runs");
      await cancelRun(prisma, await accessOfRun(prisma, owner, id, "runs.manage"), id);
      expect(await working).toBe("cancelled");
      const callsAtCancel = slow.requests.length;

      const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, id), id);
      expect(status.status).toBe("cancelled");
      expect(status.steps.cancelled).toBeGreaterThan(0);
      expect(status.steps.pending + status.steps.running).toBe(0);
      expect(callsAtCancel).toBeLessThan(3 + 3 + 1 + 1 + 3 + 3);
      // A worker that picks the job up later does nothing.
      expect(await judgeVideo(deps, { runId: id, videoId: videoIds[0]! })).toBe("cancelled");
      expect(slow.requests.length).toBe(callsAtCancel);
    } finally {
      await slow.close();
    }
  });
});
