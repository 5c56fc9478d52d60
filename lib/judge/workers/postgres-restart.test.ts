import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../generated/prisma/client";
import { createUser } from "../../auth/users";
import { createPrismaClient } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { startOwnDatabase } from "../../../testkit/testing/own-database";
import { startWorkerProcess, waitFor, type WorkerProcess } from "../../../testkit/testing/worker-process";
import { createEndpoint } from "../endpoints/endpoints";

import { pgBossQueue, startBoss } from "./queue";
import { createRun } from "../runs/runs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

let database: Awaited<ReturnType<typeof startOwnDatabase>>;
let prisma: PrismaClient;
let stub: StubServer;
let boss: PgBoss;
let worker: WorkerProcess | null = null;

beforeAll(async () => {
  database = await startOwnDatabase("pg-restart");
  prisma = createPrismaClient(database.url);
  stub = await startStubLlm({ latencyMs: 400 });
  boss = await startBoss(database.url, { supervise: false });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await boss?.stop({ graceful: false }).catch(() => {});
  await prisma?.$disconnect();
  await stub?.close();
  await database?.remove();
});

describe("PostgreSQL restarting in the middle of a run", () => {
  it("loses no step and pays for none twice", { timeout: 240_000 }, async () => {
    const user = await createUser(prisma, {
      email: "owner@restart.test",
      password: "correct horse battery",
      isAdmin: false,
    });
    const owner = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
    const videoCount = 6;
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 3 });
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
      pricePer1kInput: 0.01,
      pricePer1kOutput: 0.02,
    });
    worker = startWorkerProcess({
      ...process.env,
      DATABASE_URL: database.url,
      WORKER_CONCURRENCY: "4",
      LOG_LEVEL: "info",
    });
    const output = () => `Worker output:\n${worker!.output().slice(-4000)}`;
    const run = await createRun(
      { prisma, queue: pgBossQueue(boss), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      { pipeline: "hallucination", endpointId: endpoint.id },
    );
    const totalSteps = videoCount * (3 + 3 + 1 + 1 + 3 + 3);

    await waitFor(
      async () => (await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })) >= 12,
      90_000,
      "some finished steps",
      output,
    );
    await database.stopServer();
    // Calls in flight come back while the server is down; their results must wait for it.
    await new Promise((r) => setTimeout(r, 3000));
    await database.startServer();

    await waitFor(
      async () => (await prisma.judgeRun.findUnique({ where: { id: run.id } }))?.status === "done",
      180_000,
      "the run to finish",
      output,
    );
    expect(worker.child.exitCode, output()).toBeNull();

    const steps = await prisma.stepResult.findMany({
      where: { runId: run.id },
      select: { id: true, status: true, error: true },
    });
    expect(steps).toHaveLength(totalSteps);
    expect(steps.filter((s) => s.status !== "done")).toEqual([]);
    // One paid call per step: the stub saw each request once, and each step has exactly one call row.
    expect(stub.requests).toHaveLength(totalSteps);
    const calls = await prisma.llmCall.groupBy({ by: ["stepResultId"], _count: { _all: true } });
    expect(calls).toHaveLength(totalSteps);
    expect(calls.every((c) => c._count._all === 1)).toBe(true);
    expect(await prisma.runVideo.count({ where: { runId: run.id, status: "done" } })).toBe(videoCount);
    // The worker did meet the outage (its JSON log says so) and carried on.
    const messages = worker.lines().map((line) => line.msg);
    expect(messages).toContain("lost the database connection; waiting for PostgreSQL to answer again");
    expect(messages).toContain("the database answers again");
  });
});
