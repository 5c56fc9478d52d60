import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { waitFor, WorkerProcesses } from "../../../testkit/testing/worker-processes";
import { createEndpoint } from "../endpoints/endpoints";

import { pgBossQueue, startBoss } from "./queue";
import { createRun, getRunStatus } from "../runs/runs";
import { ESTIMATED_TOKENS_PER_IMAGE, estimatedPromptTokens } from "../calls/lost-calls";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

let stub: StubServer;
let boss: PgBoss;
const workers = new WorkerProcesses();

beforeAll(async () => {
  stub = await startStubLlm({ latencyMs: 300 });
  boss = await startBoss(process.env.DATABASE_URL!, { supervise: false });
});
afterAll(async () => {
  await workers.killAll();
  await boss.stop({ graceful: false }).catch(() => {});
  await stub.close();
});

describe("a judge worker killed mid-run", () => {
  it("another worker finishes the run, redoing no finished step", { timeout: 180_000 }, async () => {
    const owner = await makeUser();
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 3, keyFrames: 3 });
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "stub",
      baseUrl: stub.baseURL,
      model: "stub-vision",
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 4,
      requestsPerMinute: null,
      timeoutSeconds: 30,
      structuredOutput: true,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    });
    const first = workers.start().child;
    const run = await createRun(
      { prisma, queue: pgBossQueue(boss), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );
    const totalSteps = 3 * (3 + 3 + 1 + 1 + 3 + 3);

    await waitFor(
      async () => (await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })) >= 8,
      60_000,
      "some finished steps",
    );
    await workers.kill(first);
    const doneBefore = await prisma.stepResult.findMany({
      where: { runId: run.id, status: "done" },
      select: { id: true, finishedAt: true, attempts: true },
    });
    expect(doneBefore.length).toBeGreaterThanOrEqual(8);
    expect(doneBefore.length).toBeLessThan(totalSteps);
    const requestsBefore = stub.requests.length;

    workers.start();
    await waitFor(
      async () => (await prisma.judgeRun.findUnique({ where: { id: run.id } }))?.status === "done",
      120_000,
      "the run to finish",
    );

    const steps = await prisma.stepResult.findMany({ where: { runId: run.id } });
    expect(steps).toHaveLength(totalSteps);
    expect(steps.every((s) => s.status === "done")).toBe(true);
    // Finished steps were not touched again.
    for (const before of doneBefore) {
      const after = steps.find((s) => s.id === before.id)!;
      expect(after.finishedAt).toEqual(before.finishedAt);
      expect(after.attempts).toBe(before.attempts);
    }
    // Only the unfinished steps were asked again (at most the 4 in flight at the kill twice).
    const redone = stub.requests.length - requestsBefore;
    expect(redone).toBeGreaterThanOrEqual(totalSteps - doneBefore.length);
    expect(redone).toBeLessThanOrEqual(totalSteps - doneBefore.length + 4);
    expect(await prisma.runVideo.count({ where: { runId: run.id, status: "done" } })).toBe(3);
  });

  it(
    "counts the calls in flight at the crash as sent and lost: the stub's requests equal the run's calls, and their estimated tokens and cost are in the run's",
    { timeout: 180_000 },
    async () => {
      // One worker at a time: the one killed holds every call in flight.
      await workers.killAll();
      stub.reset();
      const owner = await makeUser();
      const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 3 });
      const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
        name: "stub",
        baseUrl: stub.baseURL,
        model: "stub-crash-lost",
        apiKey: null,
        imageDetail: "low",
        temperature: 0,
        maxConcurrency: 4,
        requestsPerMinute: null,
        timeoutSeconds: 60,
        structuredOutput: true,
        pricePer1kInput: 0.01,
        pricePer1kOutput: 0.03,
      });
      // Slow answers: the kill lands while requests are at the stub.
      stub.addFault({ fault: { kind: "latency", ms: 1500 }, times: 1_000_000 });
      const first = workers.start().child;
      const run = await createRun(
        { prisma, queue: pgBossQueue(boss), pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { pipeline: "hallucination", endpointId: endpoint.id },
      );
      // Four videos: the moment the kill waits for comes and goes as requests start and end, and a busy machine can let
      // a shorter run's moments pass before the check sees one.
      const totalSteps = 4 * (3 + 3 + 1 + 1 + 3 + 3);

      // The kill lands while requests are at the stub, and not in the instant between recording a call and its
      // request reaching the stub (a call recorded then counts as lost without the provider having seen it):
      // no request ended just now (a new one would follow it) or is about to, and every recorded call is at the stub.
      await waitFor(
        async () => {
          if ((await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })) < 3) return false;
          const now = Date.now();
          const held = stub.requests.filter((r) => r.endedAt === null);
          if (
            held.length < 2 ||
            held.some((r) => now - r.at > 1000) ||
            stub.requests.some((r) => r.endedAt !== null && now - r.endedAt < 300)
          )
            return false;
          return (await prisma.llmCall.count({ where: { runId: run.id, status: "sent" } })) === held.length;
        },
        60_000,
        "calls in flight after some finished steps",
      );
      const killedAt = Date.now();
      await workers.kill(first);
      // Requests the stub still held when the worker died (their connections closed with it).
      const inFlightAtKill = stub.requests.filter((r) => r.endedAt === null || r.endedAt >= killedAt).length;
      expect(inFlightAtKill).toBeGreaterThanOrEqual(1);
      // Each of them was recorded before it was sent.
      expect(await prisma.llmCall.count({ where: { runId: run.id, status: "sent" } })).toBeGreaterThanOrEqual(
        inFlightAtKill,
      );

      workers.start();
      await waitFor(
        async () => (await prisma.judgeRun.findUnique({ where: { id: run.id } }))?.status === "done",
        120_000,
        "the run to finish",
      );
      expect(await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })).toBe(totalSteps);

      const calls = await prisma.llmCall.findMany({ where: { runId: run.id } });
      const lost = calls.filter((c) => c.status === "lost");
      expect(calls.filter((c) => c.status === "sent")).toHaveLength(0);
      expect(lost.length).toBeGreaterThanOrEqual(inFlightAtKill);
      // The bill matches the provider's: every request the model received is a call of the run (answered or lost).
      expect(stub.requests.map((r) => r.text.length).sort()).toEqual(
        calls
          .flatMap((c) => Array.from({ length: 1 + c.retries }, () => (c.request as { text: string }).text.length))
          .sort(),
      );
      expect(calls.length).toBe(totalSteps + lost.length);
      // A lost call's tokens are estimated from its request (text at 4 characters a token, 255 per image) and priced.
      for (const call of lost) {
        const request = call.request as { text: string; frameIds: string[] };
        expect(call.promptTokens).toBe(
          estimatedPromptTokens({ text: request.text, imageCount: request.frameIds.length }),
        );
        expect(call.promptTokens).toBeGreaterThanOrEqual(request.frameIds.length * ESTIMATED_TOKENS_PER_IMAGE);
        expect(call.costUsd).toBeCloseTo((call.promptTokens / 1000) * 0.01, 10);
        expect(call.responseText).toBeNull();
      }
      const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
      expect(status.calls).toMatchObject({ total: calls.length, lost: lost.length, inFlight: 0 });
      const answered = calls.filter((c) => c.status === "answered");
      const sum = (rows: typeof calls, f: (c: (typeof calls)[number]) => number) => rows.reduce((s, c) => s + f(c), 0);
      expect(status.tokens.prompt).toBe(sum(answered, (c) => c.promptTokens) + sum(lost, (c) => c.promptTokens));
      expect(status.costUsd).toBeCloseTo(sum(answered, (c) => c.costUsd) + sum(lost, (c) => c.costUsd), 10);
      expect(status.costUsd!).toBeGreaterThan(sum(answered, (c) => c.costUsd));
    },
  );
});
