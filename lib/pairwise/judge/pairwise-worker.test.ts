import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../../db/prisma";
import { projectAccess } from "../../authz/permissions";
import { queueOn } from "../../jobs/job-boss";
import { createEndpoint } from "../../judge/endpoints/endpoints";
import { fileTemplateSource } from "../../judge/prompts/template-source";
import { startBoss } from "../../judge/workers/queue";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { waitFor } from "../../../testkit/testing/worker-processes";
import { DEFAULT_ASPECTS } from "../aspects";
import { createPairwiseRun } from "./pairwise-run";
import { PAIRWISE_QUEUES, pgBossPairwiseQueue, startPairwiseWorker } from "./pairwise-queue";

let stub: StubServer;
let boss: PgBoss;

beforeAll(async () => {
  stub = await startStubLlm({ latencyMs: 50 });
  boss = await queueOn(await startBoss(process.env.DATABASE_URL!, { supervise: false }), ...PAIRWISE_QUEUES);
});
afterAll(async () => {
  await boss.stop({ graceful: false }).catch(() => {});
  await stub.close();
});

describe("pairwise runs on the job queue", () => {
  it(
    "two workers on the judge-pair queue judge a run's pairs in both orders, each question sent once",
    { timeout: 120_000 },
    async () => {
      const owner = await makeUser();
      const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, { videoCount: 4, keyFrames: 1 });
      const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
        name: "stub",
        baseUrl: stub.baseURL,
        model: "stub-pairwise-worker",
        apiKey: null,
        imageDetail: "low",
        temperature: 0,
        maxConcurrency: 3,
        requestsPerMinute: null,
        timeoutSeconds: 60,
        structuredOutput: false,
        pricePer1kInput: null,
        pricePer1kOutput: null,
      });
      const set = await prisma.pairSet.create({
        data: {
          projectId,
          name: "worker set",
          aspects: DEFAULT_ASPECTS.slice(0, 2),
          origin: { source: "project" },
          createdById: owner.userId,
        },
      });
      await prisma.pair.createMany({
        data: [0, 1, 2, 3].map((i) => ({
          pairSetId: set.id,
          projectId,
          pairKey: `p${i}`,
          position: i,
          videoAId: videoIds[i]!,
          videoBId: videoIds[(i + 1) % 4]!,
          generatorA: `g${i}`,
          generatorB: `g${(i + 1) % 4}`,
          prompt: "A ball rolls down a ramp",
          nameA: "a",
          nameB: "b",
        })),
      });
      const workers = [0, 1].map(() => startPairwiseWorker(boss, testJudgeDeps(), { concurrency: 2 }));
      const run = await createPairwiseRun(
        { prisma, queue: pgBossPairwiseQueue(boss), templates: fileTemplateSource() },
        await projectAccess(prisma, owner, projectId, "runs.manage"),
        set.id,
        { endpointId: endpoint.id },
      );
      await waitFor(
        async () => (await prisma.judgeRun.findUnique({ where: { id: run.id! } }))?.status === "done",
        60_000,
        "the pairwise run to finish",
      );
      await Promise.all(workers.map((worker) => worker.stop(0)));
      // 4 pairs × 2 aspects × 2 orders, each sent once.
      expect(stub.requests.filter((r) => r.model === "stub-pairwise-worker")).toHaveLength(16);
      expect(await prisma.pairJudgeAnswer.count({ where: { runId: run.id! } })).toBe(16);
      expect(await prisma.pairVerdict.count({ where: { runId: run.id! } })).toBe(8);
      expect(await prisma.stepResult.count({ where: { runId: run.id!, status: "done" } })).toBe(16);
    },
  );
});
