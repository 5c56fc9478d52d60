import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { PrismaClient } from "../../generated/prisma/client";
import { createUser } from "../../auth/users";
import { createPrismaClient } from "../../db/prisma";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { createTestDatabase } from "../../../testkit/testing/test-database";
import { startWorkerProcess, waitFor, type WorkerProcess } from "../../../testkit/testing/worker-process";
import { createEndpoint } from "../endpoints/endpoints";

import { pgBossQueue, startBoss } from "./queue";
import { createRun } from "../runs/runs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

// docs/scaling.md ("Running more machines"), as a test: N `npm run worker` processes that share only
// DATABASE_URL, APP_SECRET and the storage, and no web server, judge one run together.
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let prisma: PrismaClient;
let stub: StubServer;
let boss: PgBoss;
const workers: WorkerProcess[] = [];
// Each worker gets its own DATA_DIR (another machine's), so nothing but the shared settings connects them.
const machines = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-machines-"));

beforeAll(async () => {
  // A database of its own, so no other test's worker takes these jobs.
  database = await createTestDatabase({ baseUrl: inject("serverBaseUrl"), stop: async () => {} }, "workers");
  prisma = createPrismaClient(database.url);
  stub = await startStubLlm({ latencyMs: 200 });
  boss = await startBoss(database.url, { supervise: false });
});
afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await boss?.stop({ graceful: false }).catch(() => {});
  await prisma?.$disconnect();
  await stub?.close();
  await database?.drop();
  fs.rmSync(machines, { recursive: true, force: true });
});

describe("running more machines", () => {
  it(
    "two worker processes on one database split a run's videos and pay for each step once",
    { timeout: 180_000 },
    async () => {
      const user = await createUser(prisma, {
        email: "owner@machines.test",
        password: "correct horse battery",
        isAdmin: false,
      });
      const owner = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
      const videoCount = 6;
      const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount, keyFrames: 2 });
      // A key that each worker must decrypt with the shared APP_SECRET (another secret fails every step).
      const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
        name: "stub",
        baseUrl: stub.baseURL,
        model: "stub-vision",
        apiKey: "sk-shared-by-workers",
        imageDetail: "low",
        temperature: 0,
        maxConcurrency: 2,
        requestsPerMinute: null,
        timeoutSeconds: 30,
        structuredOutput: true,
        pricePer1kInput: null,
        pricePer1kOutput: null,
      });

      for (const machine of ["a", "b"]) {
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          DATABASE_URL: database.url,
          APP_SECRET: process.env.APP_SECRET,
          STORAGE_DIR: process.env.STORAGE_DIR,
          DATA_DIR: path.join(machines, machine),
          WORKER_CONCURRENCY: "2",
          LOG_LEVEL: "info",
        };
        workers.push(startWorkerProcess(env));
      }
      const output = () => workers.map((w, i) => `worker ${i}:\n${w.output().slice(-3000)}`).join("\n");
      // Both listen before the run starts, so neither can take every job before the other is up.
      for (const worker of workers) {
        await waitFor(
          async () => worker.lines().some((line) => String(line.msg).startsWith("judging with up to")),
          60_000,
          "a worker to start",
          output,
        );
      }

      const run = await createRun(
        { prisma, queue: pgBossQueue(boss), pipelines: builtInCatalogue().pipelines },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        { pipeline: "hallucination", endpointId: endpoint.id },
      );
      await waitFor(
        async () => (await prisma.judgeRun.findUnique({ where: { id: run.id } }))?.status === "done",
        150_000,
        "the run to finish",
        output,
      );

      const stepsPerVideo = 2 + 2 + 1 + 1 + 2 + 2;
      const steps = await prisma.stepResult.findMany({ where: { runId: run.id }, select: { status: true } });
      expect(steps).toHaveLength(videoCount * stepsPerVideo);
      expect(steps.every((s) => s.status === "done")).toBe(true);
      expect(stub.requests).toHaveLength(videoCount * stepsPerVideo);

      // Each worker's job log names the videos it judged: both worked, and every video was judged once. A worker logs
      // a video after its last write commits, so the run may be found done before the last line comes through its pipe.
      const judgedBy = () =>
        workers.map((worker) =>
          worker
            .lines()
            .filter((line) => line.msg === "video judged" && line.runId === run.id)
            .map((line) => String(line.videoId)),
        );
      await waitFor(
        async () => judgedBy().flat().length >= videoCount,
        10_000,
        "every judged video's log line",
        output,
      );
      const judged = judgedBy();
      expect(judged[0]!.length).toBeGreaterThan(0);
      expect(judged[1]!.length).toBeGreaterThan(0);
      expect([...judged[0]!, ...judged[1]!].sort()).toEqual([...videoIds].sort());
      for (const worker of workers) expect(worker.child.exitCode, output()).toBeNull();
    },
  );
});
