import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { waitFor, WorkerProcesses } from "../../../testkit/testing/worker-processes";
import { createEndpoint } from "../endpoints/endpoints";

import { pgBossQueue, startBoss } from "../workers/queue";
import { createRun } from "../runs/runs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let boss: PgBoss;
const workers = new WorkerProcesses();

beforeAll(async () => {
  stub = await startStubLlm({ batch: { completionDelayMs: 3000 } });
  boss = await startBoss(process.env.DATABASE_URL!, { supervise: false });
});
afterAll(async () => {
  await workers.killAll();
  await boss.stop({ graceful: false }).catch(() => {});
  await stub.close();
});

describe("a batch run whose worker is killed while a batch is open", () => {
  it(
    "a new worker resumes polling the same batch and finishes the run, sending nothing twice",
    { timeout: 240_000 },
    async () => {
      const owner = await makeUser();
      const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 2 });
      const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
        name: "stub batch",
        baseUrl: stub.baseURL,
        model: "stub-vision-restart",
        apiKey: null,
        imageDetail: "low",
        temperature: 0,
        maxConcurrency: 4,
        requestsPerMinute: null,
        timeoutSeconds: 30,
        structuredOutput: true,
        pricePer1kInput: null,
        pricePer1kOutput: null,
        supportsBatchApi: true,
      });
      const env = { BATCH_POLL_SECONDS: "1" };
      const first = workers.start(env);
      await first.ready;
      const run = await createRun(
        { prisma, queue: pgBossQueue(boss), pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { pipeline: "hallucination", endpointId: endpoint.id, batch: true },
      );

      const open = await waitFor(
        () =>
          prisma.judgeBatch.findFirst({ where: { runId: run.id, providerBatchId: { not: null }, ingestedAt: null } }),
        60_000,
        "a batch sent to the stub",
      );
      await workers.kill(first.child);
      const killedAt = new Date();
      expect(stub.batches.get(open.providerBatchId!)!.status).toBe("in_progress");

      await workers.start(env).ready;
      await waitFor(
        async () => (await prisma.judgeRun.findUnique({ where: { id: run.id } }))?.status === "done",
        150_000,
        "the run to finish",
      );

      const totalSteps = 2 * (2 + 2 + 1 + 1 + 2 + 2);
      const steps = await prisma.stepResult.findMany({ where: { runId: run.id } });
      expect(steps).toHaveLength(totalSteps);
      expect(steps.every((s) => s.status === "done")).toBe(true);
      // The open batch was read by the new worker, not sent again; no line went out twice.
      const resumed = await prisma.judgeBatch.findUniqueOrThrow({ where: { id: open.id } });
      expect(resumed.status).toBe("completed");
      expect(resumed.ingestedAt!.getTime()).toBeGreaterThan(killedAt.getTime());
      const batches = await prisma.judgeBatch.count({ where: { runId: run.id } });
      expect(stub.batches.size).toBe(batches);
      expect(new Set(stub.batchLines.map((l) => l.customId)).size).toBe(stub.batchLines.length);
      expect(stub.batchLines).toHaveLength(totalSteps);
      expect(stub.requests).toHaveLength(0);
    },
  );
});
