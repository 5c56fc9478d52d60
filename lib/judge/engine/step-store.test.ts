import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, prisma } from "../../db/prisma";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../generated/prisma/client";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createEndpoint } from "../endpoints/endpoints";

import { createRun } from "../runs/runs";
import { JudgeStore, type CallRow, type StepFinish } from "./step-store";
import { planVideosSteps } from "./video-jobs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

/** A queued hallucination run of `videoCount` new videos with one key frame each: its jobs, as a worker takes them. */
async function queuedRun(videoCount: number) {
  const owner = await makeUser();
  const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 1 });
  const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: "http://127.0.0.1:9/v1",
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 1,
    requestsPerMinute: null,
    timeoutSeconds: 10,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
  const jobs: { runId: string; videoId: string }[] = [];
  await createRun(
    {
      prisma,
      queue: { enqueue: async (queued) => void jobs.push(...queued) },
      pipelines: builtInCatalogue().pipelines,
    },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline: "hallucination",
      endpointId: endpoint.id,
    },
  );
  return jobs;
}

/** A queued run of one video with its planned steps, as a worker finds it. */
async function plannedVideo(db: PrismaClient = prisma) {
  const job = (await queuedRun(1))[0]!;
  const [steps] = await planVideosSteps(
    db,
    [
      {
        job,
        planned: [
          { stepId: "inconsistency", scopeIndex: 0, itemId: "", templateId: "hallucination/inconsistency" },
          { stepId: "video_summary", scopeIndex: 0, itemId: "", templateId: "hallucination/video-summary" },
        ],
      },
    ],
    new Date(),
  );
  return { job, steps: steps! };
}

const finished = (
  job: { runId: string; videoId: string },
  step: { id: string; stepId: string; scopeIndex: number },
  score: number,
  at: Date,
): StepFinish => ({
  id: step.id,
  runId: job.runId,
  videoId: job.videoId,
  itemId: "",
  stepId: step.stepId,
  scopeIndex: step.scopeIndex,
  status: "done",
  output: { score },
  rawText: `{"score": ${score}}`,
  error: null,
  templateHash: "h",
  startedAt: at,
  finishedAt: at,
  scores: [{ category: "inconsistency", value: score }],
  calls: [],
  cache: [],
});

/** A call row as the engine writes it before the request goes out: "sent", with its tokens estimated. */
const sentCall = (
  job: { runId: string; videoId: string },
  stepResultId: string,
  request: unknown,
  id: string = randomUUID(),
): CallRow => ({
  id,
  status: "sent",
  runId: job.runId,
  stepResultId,
  videoId: job.videoId,
  model: "m",
  request,
  responseText: null,
  finishReason: null,
  httpStatus: null,
  error: null,
  errorExcerpt: null,
  isRepair: false,
  cached: false,
  promptTokens: 9,
  completionTokens: 0,
  costUsd: 0,
  latencyMs: 0,
  retries: 0,
  createdAt: new Date(),
});

describe("the judge engine's store", () => {
  let tokyo: PrismaClient;
  beforeAll(() => {
    // A session in another time zone than the server's default: what it writes must still be UTC.
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set("options", "-c TimeZone=Asia/Tokyo");
    tokyo = createPrismaClient(url.toString());
  });
  afterAll(() => tokyo.$disconnect());

  it("plans in order and writes step times in UTC, as Prisma reads them, whatever the session's time zone", async () => {
    const before = new Date(Date.now() - 1000);
    const { job, steps } = await plannedVideo(tokyo);
    expect(steps.map((s) => [s.stepId, s.status])).toEqual([
      ["inconsistency", "pending"],
      ["video_summary", "pending"],
    ]);
    const at = new Date("2026-03-01T12:34:56.789Z");
    expect(await new JudgeStore(tokyo).finishStep(finished(job, steps[0]!, 4, at))).toBe(true);
    const row = await prisma.stepResult.findUniqueOrThrow({ where: { id: steps[0]!.id }, include: { scores: true } });
    expect(row).toMatchObject({ status: "done", output: { score: 4 }, attempts: 1 });
    expect(row.finishedAt).toEqual(at);
    expect(row.startedAt).toEqual(at);
    expect(row.scores.map((s) => [s.category, s.value])).toEqual([["inconsistency", 4]]);
    const run = await prisma.judgeRun.findUniqueOrThrow({ where: { id: job.runId } });
    expect(run.status).toBe("running");
    expect(run.startedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(run.startedAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("writes a batch that the database refuses again step by step, so only the bad step fails", async () => {
    const { job, steps } = await plannedVideo();
    const store = new JudgeStore(prisma);
    const at = new Date();
    // Both in one batch; a score of NaN has no JSON form and lands as NULL in a NOT NULL column.
    const good = store.finishStep(finished(job, steps[1]!, 3, at));
    const bad = store.finishStep(finished(job, steps[0]!, Number.NaN, at));
    await expect(good).resolves.toBe(true);
    await expect(bad).rejects.toThrow();
    const rows = await prisma.stepResult.findMany({
      where: { runId: job.runId },
      orderBy: { stepId: "asc" },
      include: { scores: true },
    });
    expect(rows.map((r) => [r.stepId, r.status, r.scores.length])).toEqual([
      ["inconsistency", "pending", 0],
      ["video_summary", "done", 1],
    ]);
  });

  it("keeps a step's answered call and its cache entry when the database refuses the step's end, so its next attempt asks nothing", async () => {
    const { job, steps } = await plannedVideo();
    const store = new JudgeStore(prisma);
    const key = `answered-${randomUUID()}`;
    const sent = sentCall(job, steps[0]!.id, { messages: [] });
    await store.call(sent);
    const answered: CallRow = {
      ...sent,
      status: "answered",
      request: null,
      responseText: '{"score": 4}',
      finishReason: "stop",
      httpStatus: 200,
      completionTokens: 5,
    };
    const cache = [
      {
        key,
        model: "m",
        responseText: '{"score": 4}',
        finishReason: "stop",
        promptTokens: 9,
        completionTokens: 5,
        replace: false,
      },
    ];
    // A score of NaN lands as NULL in a NOT NULL column: the step's end is refused.
    const refused = { ...finished(job, steps[0]!, Number.NaN, new Date()), calls: [answered], cache };
    await expect(store.finishStep(refused)).rejects.toThrow();

    expect(await prisma.stepResult.findUniqueOrThrow({ where: { id: steps[0]!.id } })).toMatchObject({
      status: "pending",
    });
    expect(await prisma.llmCall.findUniqueOrThrow({ where: { id: sent.id! } })).toMatchObject({
      status: "answered",
      responseText: '{"score": 4}',
      completionTokens: 5,
    });
    expect(await store.lookUp(key, { id: steps[0]!.id, at: new Date() })).toEqual({
      cached: { responseText: '{"score": 4}', finishReason: "stop", logprobs: null },
    });
  });

  it("marks a step started with the cache look-up that misses, counting the attempt; a step the run's cancellation closed is neither started nor finished, and gets no scores", async () => {
    const { job, steps } = await plannedVideo();
    const store = new JudgeStore(prisma);
    const startedAt = new Date("2026-03-02T08:00:00.000Z");
    const missing = `no-such-key-${randomUUID()}`;
    expect(await store.lookUp(missing, { id: steps[0]!.id, at: startedAt })).toEqual({ cached: null, started: true });
    expect(await prisma.stepResult.findUniqueOrThrow({ where: { id: steps[0]!.id } })).toMatchObject({
      status: "running",
      attempts: 1,
      startedAt,
    });
    const done = { ...finished(job, steps[0]!, 5, new Date("2026-03-02T08:00:01.000Z")), startedAt: undefined };
    expect(await store.finishStep(done)).toBe(true);
    expect(await prisma.stepResult.findUniqueOrThrow({ where: { id: steps[0]!.id } })).toMatchObject({
      status: "done",
      attempts: 1,
      startedAt,
    });

    // What cancelRun does to a pending step.
    await prisma.stepResult.update({ where: { id: steps[1]!.id }, data: { status: "cancelled" } });
    expect(await store.lookUp(missing, { id: steps[1]!.id, at: new Date() })).toEqual({ cached: null, started: false });
    expect(await store.finishStep(finished(job, steps[1]!, 6, new Date()))).toBe(false);
    const closed = await prisma.stepResult.findUniqueOrThrow({
      where: { id: steps[1]!.id },
      include: { scores: true },
    });
    expect(closed).toMatchObject({ status: "cancelled", attempts: 0, output: null, scores: [] });
  });

  it("answers a look-up from the cache without starting the step", async () => {
    const { steps } = await plannedVideo();
    const key = `cached-${randomUUID()}`;
    await prisma.responseCache.create({
      data: { key, model: "m", responseText: '{"score": 1}', finishReason: "stop" },
    });
    const store = new JudgeStore(prisma);
    const [hit, miss] = await Promise.all([
      store.lookUp(key, { id: steps[0]!.id, at: new Date() }),
      store.lookUp(`${key}-other`, null),
    ]);
    // An answer cached without logprobs says so (null), rather than carrying made-up ones.
    expect(hit).toEqual({ cached: { responseText: '{"score": 1}', finishReason: "stop", logprobs: null } });
    expect(miss).toEqual({ cached: null, started: false });
    expect(await prisma.stepResult.findUniqueOrThrow({ where: { id: steps[0]!.id } })).toMatchObject({
      status: "pending",
      attempts: 0,
      startedAt: null,
    });
  });

  it("leaves the same result when a statement runs twice (the database client resends one whose answer a broken connection lost)", async () => {
    const { job, steps } = await plannedVideo();
    const store = new JudgeStore(prisma);
    const start = { id: steps[0]!.id, at: new Date("2026-03-03T10:00:00.000Z") };
    const key = `missing-${randomUUID()}`;
    expect(await store.lookUp(key, start)).toEqual({ cached: null, started: true });
    expect(await store.lookUp(key, start)).toEqual({ cached: null, started: true });
    const call = {
      runId: job.runId,
      stepResultId: steps[0]!.id,
      videoId: job.videoId,
      model: "m",
      request: { text: "t" },
      responseText: '{"score": 2}',
      finishReason: "stop",
      httpStatus: 200,
      error: null,
      errorExcerpt: null,
      isRepair: false,
      cached: false,
      promptTokens: 1,
      completionTokens: 1,
      costUsd: 0,
      latencyMs: 5,
      retries: 0,
      createdAt: new Date(),
    };
    const end = {
      ...finished(job, steps[0]!, 2, new Date("2026-03-03T10:00:01.000Z")),
      startedAt: undefined,
      calls: [call],
    };
    expect(await store.finishStep(end)).toBe(true);
    expect(await store.finishStep(end)).toBe(true);
    const row = await prisma.stepResult.findUniqueOrThrow({
      where: { id: steps[0]!.id },
      include: { calls: true, scores: true },
    });
    expect(row).toMatchObject({ status: "done", attempts: 1, startedAt: start.at });
    expect(row.calls).toHaveLength(1);
    expect(row.scores.map((s) => s.value)).toEqual([2]);
  });
  it("keeps the request of a call's sent row when its outcome comes without one", async () => {
    const { job, steps } = await plannedVideo();
    const store = new JudgeStore(prisma);
    const base = {
      runId: job.runId,
      stepResultId: steps[0]!.id,
      videoId: job.videoId,
      model: "m",
      httpStatus: null,
      error: null,
      errorExcerpt: null,
      isRepair: false,
      cached: false,
    };
    const id = randomUUID();
    const request = { text: "the rendered prompt", frameIds: ["f1"] };
    await store.call(sentCall(job, steps[0]!.id, request, id));
    const outcome = {
      ...base,
      id,
      request: null,
      responseText: '{"score": 3}',
      finishReason: "stop",
      httpStatus: 200,
      promptTokens: 7,
      completionTokens: 2,
      costUsd: 0,
      latencyMs: 5,
      retries: 0,
      createdAt: new Date(),
    };
    expect(await store.finishStep({ ...finished(job, steps[0]!, 3, new Date()), calls: [outcome] })).toBe(true);
    const row = await prisma.llmCall.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      status: "answered",
      request,
      responseText: '{"score": 3}',
      promptTokens: 7,
      httpStatus: 200,
    });
  });

  it("reads and plans the videos that ask in the same tick in one statement each; an ask that fails fails only itself", async () => {
    const jobs = await queuedRun(3);
    expect(jobs).toHaveLength(3);
    const counted = new PrismaClient({
      adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }),
      log: [{ emit: "event", level: "query" }],
    });
    const statements: string[] = [];
    counted.$on("query", (event) => statements.push(event.query));
    try {
      const store = new JudgeStore(counted);
      const noSuchRun = { runId: "no-such-run", videoId: jobs[0]!.videoId };

      const loaded = await Promise.all([...jobs, noSuchRun].map((job) => store.loadJob(job)));
      expect(statements).toHaveLength(1);
      expect(loaded.map((job) => job?.frames.length ?? null)).toEqual([...jobs.map(() => expect.any(Number)), null]);
      expect(loaded.slice(0, 3).every((job) => job!.frames.length > 0 && job!.run.pipeline === "hallucination")).toBe(
        true,
      );

      // Each video plans its own steps, in its own order.
      const plan = (scopes: number[]) =>
        scopes.map((scopeIndex) => ({
          stepId: "static_kg",
          scopeIndex,
          itemId: "",
          templateId: "hallucination/static-kg",
        }));
      statements.length = 0;
      const planned = await Promise.all([
        store.planSteps(jobs[0]!, plan([0])),
        store.planSteps(jobs[1]!, plan([1, 0])),
        store.planSteps(jobs[2]!, plan([0, 1, 2])),
      ]);
      expect(statements).toHaveLength(1);
      expect(planned.map((rows) => rows.map((row) => row.scopeIndex))).toEqual([[0], [1, 0], [0, 1, 2]]);

      // The ask for a run that does not exist breaks the statement (its step rows name no run); asked again
      // alone, it is the only one to fail.
      const again = await Promise.allSettled([
        store.planSteps(jobs[0]!, plan([0])),
        store.planSteps(noSuchRun, plan([0])),
      ]);
      expect(again.map((p) => p.status)).toEqual(["fulfilled", "rejected"]);
      expect(again[0]!.status === "fulfilled" && again[0]!.value.map((row) => row.id)).toEqual(
        planned[0]!.map((row) => row.id),
      );
      const stored = await prisma.stepResult.groupBy({
        by: ["videoId"],
        where: { runId: jobs[0]!.runId },
        _count: { _all: true },
      });
      expect(Object.fromEntries(stored.map((row) => [row.videoId, row._count._all]))).toEqual({
        [jobs[0]!.videoId]: 1,
        [jobs[1]!.videoId]: 2,
        [jobs[2]!.videoId]: 3,
      });
      const videos = await prisma.runVideo.findMany({ where: { runId: jobs[0]!.runId }, select: { status: true } });
      expect(videos.map((video) => video.status)).toEqual(["running", "running", "running"]);
    } finally {
      await counted.$disconnect();
    }
  });

  it("puts back the running steps and marks lost the sent calls of the videos it plans again, and of no other video", async () => {
    const jobs = await queuedRun(3);
    const plan = [{ stepId: "inconsistency", scopeIndex: 0, itemId: "", templateId: "hallucination/inconsistency" }];
    const first = await planVideosSteps(
      prisma,
      jobs.map((job) => ({ job, planned: plan })),
      new Date(),
    );
    const store = new JudgeStore(prisma);
    // A worker started the step of the first and the third video, sent their calls, and died.
    for (const i of [0, 2]) {
      const step = first[i]![0]!;
      expect(await store.lookUp(`no-such-key-${randomUUID()}`, { id: step.id, at: new Date() })).toEqual({
        cached: null,
        started: true,
      });
      await store.call(sentCall(jobs[i]!, step.id, { text: "the rendered prompt" }));
    }

    // The first two are taken again, together.
    const again = await planVideosSteps(
      prisma,
      jobs.slice(0, 2).map((job) => ({ job, planned: plan })),
      new Date(),
    );
    expect(again.map((rows) => rows.map((row) => [row.id, row.status]))).toEqual([
      [[first[0]![0]!.id, "pending"]],
      [[first[1]![0]!.id, "pending"]],
    ]);
    const steps = await prisma.stepResult.findMany({
      where: { runId: jobs[0]!.runId },
      select: { videoId: true, status: true },
    });
    expect(Object.fromEntries(steps.map((step) => [step.videoId, step.status]))).toEqual({
      [jobs[0]!.videoId]: "pending",
      [jobs[1]!.videoId]: "pending",
      [jobs[2]!.videoId]: "running",
    });
    const calls = await prisma.llmCall.findMany({
      where: { runId: jobs[0]!.runId },
      select: { videoId: true, status: true },
    });
    expect(Object.fromEntries(calls.map((call) => [call.videoId, call.status]))).toEqual({
      [jobs[0]!.videoId]: "lost",
      [jobs[2]!.videoId]: "sent",
    });
  });

  it("replaces a video's metrics when it finishes again: new values win, metrics it no longer has are dropped, other videos keep theirs", async () => {
    const jobs = await queuedRun(2);
    const store = new JudgeStore(prisma);
    const finish = (
      job: { runId: string; videoId: string },
      metrics: { itemId: string; metric: string; value: number }[],
    ) => store.finishVideo({ ...job, summary: { metrics: metrics.length }, metrics, finishedAt: new Date() });
    const both = [
      { itemId: "", metric: "overall", value: 1 },
      { itemId: "", metric: "hallucination", value: 2 },
      { itemId: "item-1", metric: "overall", value: 3 },
    ];
    await Promise.all(jobs.map((job) => finish(job, both)));
    await finish(jobs[0]!, [
      { itemId: "", metric: "overall", value: 4 },
      { itemId: "item-2", metric: "overall", value: 5 },
    ]);
    const stored = async (videoId: string) =>
      (
        await prisma.runMetric.findMany({
          where: { runId: jobs[0]!.runId, videoId },
          orderBy: [{ itemId: "asc" }, { metric: "asc" }],
        })
      ).map((m) => [m.itemId, m.metric, m.value]);
    expect(await stored(jobs[0]!.videoId)).toEqual([
      ["", "overall", 4],
      ["item-2", "overall", 5],
    ]);
    expect(await stored(jobs[1]!.videoId)).toEqual([
      ["", "hallucination", 2],
      ["", "overall", 1],
      ["item-1", "overall", 3],
    ]);
    const videos = await prisma.runVideo.findMany({
      where: { runId: jobs[0]!.runId },
      orderBy: { videoId: "asc" },
      select: { videoId: true, status: true, summary: true },
    });
    expect(videos.find((v) => v.videoId === jobs[0]!.videoId)).toMatchObject({
      status: "done",
      summary: { metrics: 2 },
    });
  });
});
