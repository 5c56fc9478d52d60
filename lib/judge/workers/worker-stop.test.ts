import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { prisma } from "../../db/prisma";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { waitFor, WorkerProcesses } from "../../../testkit/testing/worker-processes";
import { createEndpoint } from "../endpoints/endpoints";
import { pgBossQueue, startBoss } from "./queue";
import { createRun } from "../runs/runs";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let boss: PgBoss;
const workers = new WorkerProcesses();

beforeAll(async () => {
  stub = await startStubLlm({ latencyMs: 0 });
  boss = await startBoss(process.env.DATABASE_URL!, { supervise: false });
});
afterAll(async () => {
  await workers.killAll();
  await boss.stop({ graceful: false }).catch(() => {});
  await stub.close();
});

describe("a judge worker stopped with SIGTERM mid-run (docker stop, a scale-down)", () => {
  it(
    "lets its calls in flight answer, sends no new one, and hands its videos back: the model answers each call once",
    { timeout: 180_000 },
    async () => {
      const owner = await makeUser();
      const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 3 });
      const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
        name: "stub",
        baseUrl: stub.baseURL,
        model: "stub-worker-stop",
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
      // Slow answers: the stop comes while requests are at the model.
      stub.addFault({ fault: { kind: "latency", ms: 1500 }, times: 1_000_000 });
      const first = workers.start().child;
      const run = await createRun(
        { prisma, queue: pgBossQueue(boss), pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { pipeline: "hallucination", endpointId: endpoint.id },
      );
      const totalSteps = 4 * (3 + 3 + 1 + 1 + 3 + 3);
      await waitFor(
        async () =>
          (await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })) >= 3 &&
          stub.requests.filter((request) => request.endedAt === null).length >= 2,
        60_000,
        "calls in flight after some finished steps",
      );

      const exited = new Promise<number | null>((resolve) => first.once("exit", (code) => resolve(code)));
      first.kill("SIGTERM");
      expect(await exited).toBe(0);
      const sentByFirst = stub.requests.length;
      // Every request it sent was answered before it exited, and stored: no call is left "sent" (to be counted lost).
      expect(stub.requests.filter((request) => request.endedAt === null)).toEqual([]);
      expect(await prisma.llmCall.count({ where: { runId: run.id, status: "sent" } })).toBe(0);
      expect(await prisma.llmCall.count({ where: { runId: run.id } })).toBe(sentByFirst);
      // It stopped before the run was done: the rest is the next worker's.
      expect(await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })).toBeLessThan(totalSteps);

      workers.start();
      await waitFor(
        async () => (await prisma.judgeRun.findUnique({ where: { id: run.id } }))?.status === "done",
        120_000,
        "the run to finish",
      );
      expect(await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })).toBe(totalSteps);
      const calls = await prisma.llmCall.findMany({ where: { runId: run.id } });
      expect(calls.filter((call) => call.status !== "answered")).toEqual([]);
      // The model answered each call once: no request was sent twice, by either worker.
      expect(calls.reduce((sum, call) => sum + 1 + call.retries, 0)).toBe(stub.requests.length);
      expect(calls).toHaveLength(totalSteps);
    },
  );
});
