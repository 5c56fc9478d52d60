/**
 * A run's budget on the stub LLM: the run stops, resumable, once its calls have cost its budget; a higher budget
 * resumes it to the end, and no step's call is paid twice (answered steps stay done, the cache answers the rest).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { ConflictError, ValidationError } from "../../errors";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { EndpointLimiter } from "../endpoints/endpoint-limiter";
import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { appContext } from "../../app-context/app-context";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../../testkit/testing/stub-endpoint";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { createRunSchema } from "./run-input.validation";
import { createRun, dryRun, getRunStatus } from "./runs";
import { resumeRun, runSpendUsd, stopWhenOverBudget } from "./run-budget";
import type { RunEstimate } from "./cost-estimate";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(async () => stub?.close());

const queue = () => inlineJudgeQueue(testJudgeDeps());
/** Workers' calls to one endpoint share its concurrency limit: one limiter per endpoint, as a worker's. */
const sharedLimiterQueue = () => {
  const limiters = new Map<string, EndpointLimiter>();
  return inlineJudgeQueue(
    testJudgeDeps({
      limiterFor: (endpoint) => {
        let limiter = limiters.get(endpoint.id);
        if (!limiter)
          limiters.set(endpoint.id, (limiter = new EndpointLimiter({ ...endpoint, requestsPerMinute: null })));
        return limiter;
      },
    }),
  );
};
const deps = () => ({ prisma, queue: queue(), pipelines: builtInCatalogue().pipelines });
const parse = (body: unknown) => createRunSchema(builtInCatalogue()).parse(body);
/** What starts an ensemble run, as the composition root hands it to the routes. */
const { startEnsemble } = appContext();

describe("a run's budget", () => {
  it("stops the run when its spend reaches it; a higher budget resumes it to the end, no call paid twice", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL, "stub-vision", {
      pricePer1kInput: 1,
      pricePer1kOutput: 1,
      maxConcurrency: 1,
    });
    // Answers take a while, one at a time: the run is still asking when the engine next looks at its spend.
    stub.addFault({ fault: { kind: "latency", ms: 200 }, times: 1000 });
    const body = { pipeline: "hallucination", endpointId: endpoint.id };
    const dry = (await dryRun(
      deps(),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ ...body, dryRun: true }),
    )) as {
      estimate: RunEstimate;
    };
    const budget = dry.estimate.costUsd! / 4;
    const run = (await createRun(
      deps(),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ ...body, budgetUsd: budget }),
    )) as { id: string };

    const stopped = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
    expect(stopped).toMatchObject({ status: "cancelled", stopReason: "budget", budgetUsd: budget });
    // The next call would have passed it: the spend is within it but for the calls in flight when it was reached.
    const costs = (await prisma.llmCall.findMany({ where: { runId: run.id } })).map((call) => call.costUsd);
    expect(stopped.callsInFlightAtStop).not.toBeNull();
    expect(await runSpendUsd(prisma, run.id)).toBeLessThanOrEqual(
      budget + stopped.callsInFlightAtStop! * Math.max(...costs),
    );
    expect(stopped.steps.done).toBeLessThan(dry.estimate.calls);
    expect(stopped.steps.cancelled).toBeGreaterThan(0);

    // A budget at or below the spend would stop it again at once: refused, nothing changes.
    await expect(
      resumeRun({ prisma, queue: queue() }, await accessOfRun(prisma, owner, run.id, "runs.manage"), run.id, {
        budgetUsd: budget,
      }),
    ).rejects.toThrow(ValidationError);
    expect((await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).status).toBe("cancelled");

    await resumeRun({ prisma, queue: queue() }, await accessOfRun(prisma, owner, run.id, "runs.manage"), run.id, {
      budgetUsd: budget * 100,
    });
    const resumed = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
    expect(resumed).toMatchObject({ status: "done", stopReason: null, budgetUsd: budget * 100 });
    expect(resumed.steps.done).toBe(dry.estimate.calls);
    const paid = await prisma.llmCall.groupBy({
      by: ["stepResultId"],
      where: { runId: run.id, cached: false },
      _count: { _all: true },
    });
    expect(paid).toHaveLength(dry.estimate.calls);
    expect(paid.every((step) => step._count._all === 1)).toBe(true);

    // Finished: nothing to resume.
    await expect(
      resumeRun({ prisma, queue: queue() }, await accessOfRun(prisma, owner, run.id, "runs.manage"), run.id, {
        budgetUsd: null,
      }),
    ).rejects.toThrow(ConflictError);
  }, 120_000);

  it("bounds an ensemble's spend: no call is sent once its budget is reached, however many wait for the endpoint", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 4 });
    const concurrency = 2;
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL, "stub-vision", {
      pricePer1kInput: 1,
      pricePer1kOutput: 0,
      maxConcurrency: concurrency,
    });
    // Answers take a while: every step of the videos is ready at once and waits for one of the two slots.
    stub.addFault({ fault: { kind: "latency", ms: 50 }, times: 1000 });
    const body = { pipeline: "hallucination", endpointId: endpoint.id };
    const dry = (await dryRun(
      deps(),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ ...body, dryRun: true }),
    )) as {
      estimate: RunEstimate;
    };
    // Each sample's budget holds about 3 of its calls.
    const budget = (dry.estimate.costUsd! / dry.estimate.calls) * 3;
    const before = stub.requests.length;
    const samples = { kind: "samples", samples: 3, temperature: 0.7 };
    const run = (await createRun(
      { prisma, queue: sharedLimiterQueue(), pipelines: builtInCatalogue().pipelines, startEnsemble },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ ...body, budgetUsd: budget, ensemble: samples }),
    )) as { id: string; members: string[] };
    const received = stub.requests.length - before;

    const members = await prisma.judgeRun.findMany({
      where: { id: { in: run.members } },
      select: { id: true, status: true, stopReason: true, committedUsd: true, callsInFlightAtStop: true },
    });
    const calls = await prisma.llmCall.findMany({ where: { runId: { in: run.members } }, select: { costUsd: true } });
    // The most calls a sample's budget holds: as many as fit were each the cheapest call made.
    const allowed = Math.floor(budget / Math.min(...calls.map((call) => call.costUsd)));
    expect(received).toBe(calls.length);
    expect(received).toBeLessThanOrEqual(run.members.length * allowed + concurrency);
    expect(received).toBeLessThan(run.members.length * dry.estimate.calls);
    for (const member of members) {
      expect(member).toMatchObject({ status: "cancelled", stopReason: "budget" });
      expect(member.callsInFlightAtStop).toBeLessThanOrEqual(concurrency);
    }
    const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, members[0]!.id), members[0]!.id);
    expect(status.steps.cancelled).toBeGreaterThan(0);
    expect(status.steps.running).toBe(0);
    // The ensemble run stops with them, resumable (the next test resumes one).
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      status: "cancelled",
      stopReason: "budget",
    });
  }, 120_000);

  it("stops an ensemble run with the members its budget stopped; resuming it resumes them and combines their scores", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 3 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL, "stub-vision", {
      pricePer1kInput: 1,
      pricePer1kOutput: 0,
      maxConcurrency: 2,
    });
    stub.addFault({ fault: { kind: "latency", ms: 50 }, times: 1000 });
    const body = { pipeline: "hallucination", endpointId: endpoint.id };
    const dry = (await dryRun(
      deps(),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ ...body, dryRun: true }),
    )) as {
      estimate: RunEstimate;
    };
    const budget = (dry.estimate.costUsd! / dry.estimate.calls) * 2;
    const ensembleDeps = () => ({
      prisma,
      queue: sharedLimiterQueue(),
      pipelines: builtInCatalogue().pipelines,
      startEnsemble,
    });
    const samples = { kind: "samples", samples: 2, temperature: 0.7 };
    const run = (await createRun(
      ensembleDeps(),
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ ...body, budgetUsd: budget, ensemble: samples }),
    )) as { id: string; members: string[] };

    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      status: "cancelled",
      stopReason: "budget",
    });
    for (const memberId of run.members)
      expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, memberId), memberId)).toMatchObject({
        status: "cancelled",
        stopReason: "budget",
      });

    // Named by a member or by itself, the ensemble resumes: every member to the end, then its scores combined.
    await resumeRun(
      { prisma, queue: ensembleDeps().queue },
      await accessOfRun(prisma, owner, run.members[1]!, "runs.manage"),
      run.members[1]!,
      { budgetUsd: budget * 1000 },
    );
    expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id)).toMatchObject({
      status: "done",
      stopReason: null,
    });
    for (const memberId of run.members)
      expect(await getRunStatus(prisma, await accessOfRun(prisma, owner, memberId), memberId)).toMatchObject({
        status: "done",
        budgetUsd: budget * 1000,
      });
    expect(await prisma.score.count({ where: { runId: run.id } })).toBeGreaterThan(0);
  }, 120_000);

  it("counts a call recorded ahead of its slot only once it reserves, as it is about to be sent", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
    const run = (await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ pipeline: "hallucination", endpointId: endpoint.id, budgetUsd: 1 }),
    )) as { id: string };
    const step = await prisma.stepResult.create({
      data: { runId: run.id, videoId: videoIds[0]!, stepId: "s", scopeIndex: 0, templateId: "t" },
    });
    const call = (status: string, costUsd: number) =>
      prisma.llmCall.create({
        data: { runId: run.id, stepResultId: step.id, videoId: videoIds[0]!, model: "m", request: {}, status, costUsd },
      });
    // Written "sent" while waiting for a slot, not yet reserved: under the budget still.
    await call("sent", 0.7);
    await call("answered", 0.5);
    await prisma.judgeRun.update({ where: { id: run.id }, data: { committedUsd: 0.5 } });
    const read = () => prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(await stopWhenOverBudget(prisma, await read())).toBe(false);
    expect((await read()).status).toBe("queued");
    // Its reservation reaches the budget: the run stops.
    await prisma.judgeRun.update({ where: { id: run.id }, data: { committedUsd: 1.2, callsInFlight: 1 } });
    expect(await stopWhenOverBudget(prisma, await read())).toBe(true);
    expect(await read()).toMatchObject({ status: "cancelled", stopReason: "budget", callsInFlightAtStop: 1 });
  });

  it("refuses to resume a run a member cancelled", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const endpoint = await createStubEndpoint(prisma, owner, projectId, stub.baseURL);
    const run = (await createRun(
      { prisma, queue: { enqueue: async () => {} }, pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      parse({ pipeline: "hallucination", endpointId: endpoint.id }),
    )) as { id: string };
    await prisma.judgeRun.update({ where: { id: run.id }, data: { status: "cancelled" } });
    await expect(
      resumeRun({ prisma, queue: queue() }, await accessOfRun(prisma, owner, run.id, "runs.manage"), run.id, {
        budgetUsd: 5,
      }),
    ).rejects.toThrow(ConflictError);
  });

  it("refuses a budget that is not a positive amount", () => {
    expect(() => parse({ pipeline: "hallucination", endpointId: "e", budgetUsd: 0 })).toThrow();
    expect(() => parse({ pipeline: "hallucination", endpointId: "e", budgetUsd: -1 })).toThrow();
    expect(() => parse({ pipeline: "hallucination", endpointId: "e", budgetUsd: "5" })).toThrow();
  });
});
