/**
 * A step whose answer arrived must not fail because the database is busy when its result is saved: under
 * load (bench:qa's 500 video jobs × 10 questions on a shared server) the connection pool was exhausted for
 * more than Prisma's default 2 s wait to start a transaction, and finished answers ended `failed` (P2028).
 * Here the engine's client has a pool of one connection, which another transaction holds for 3 s just when
 * the first step saves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { PrismaPg } from "@prisma/adapter-pg";
import { prisma } from "../../db/prisma";
import { PrismaClient } from "../../generated/prisma/client";
import { importQuestionSet } from "../../tasks/qa/question-set-import";
import { startStubLlm, type StubServer } from "../../../testkit/llm-stub/stub-server";
import { makeUser } from "../../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../../testkit/testing/judge-fixtures";
import { questionSetBytes, smallQuestionSet } from "../../../testkit/tasks/qa/qa-fixtures";
import { createEndpoint } from "../endpoints/endpoints";
import { createRunSchema } from "../runs/run-input.validation";

import { createRun } from "../runs/runs";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
let tiny: PrismaClient;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  tiny = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL!, max: 1 }) });
});
afterAll(async () => {
  await tiny.$disconnect();
  await stub.close();
});

/**
 * The client, except that the first save of a finished step (the engine store's write of steps' ends,
 * step-store.ts) finds the only connection held for 3 s by another transaction.
 */
function busyWhenFirstSaving(client: PrismaClient): { client: PrismaClient; saves: () => number } {
  let saves = 0;
  const busy = new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property !== "$queryRaw") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        const sql = Array.isArray(args[0]) ? (args[0] as string[]).join("?") : "";
        if (/WITH finished AS/.test(sql) && ++saves === 1) {
          let holding!: () => void;
          const held = new Promise<void>((resolve) => (holding = resolve));
          void target.$transaction(
            async (tx) => {
              holding();
              await tx.$queryRaw`SELECT pg_sleep(3)::text`;
            },
            { timeout: 10_000 },
          );
          await held;
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client: busy, saves: () => saves };
}

describe("saving a finished step", () => {
  it("waits for a busy connection pool instead of failing the step", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      uniformFrames: 8,
    });
    await prisma.video.updateMany({ where: { id: { in: videoIds } }, data: { width: 128, height: 96 } });
    const set = await importQuestionSet(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      fileName: "q.jsonl",
      bytes: questionSetBytes(smallQuestionSet().slice(0, 1)),
    });
    const endpoint = await createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
      name: "stub",
      baseUrl: stub.baseURL,
      model: `stub-vision-${projectId.slice(-8)}`,
      apiKey: null,
      imageDetail: "low",
      temperature: 0,
      maxConcurrency: 4,
      requestsPerMinute: null,
      timeoutSeconds: 60,
      structuredOutput: true,
      pricePer1kInput: null,
      pricePer1kOutput: null,
    });
    const busy = busyWhenFirstSaving(tiny);
    const deps = testJudgeDeps({ prisma: busy.client });
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(deps), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "qa", endpointId: endpoint.id, questionSetId: set.set.id }),
    );
    const steps = await prisma.stepResult.findMany({
      where: { runId: run.id },
      select: { stepId: true, status: true, error: true },
    });
    expect(steps.map((s) => [s.stepId, s.status, s.error]).sort()).toEqual([
      ["answer", "done", null],
      ["decide", "done", null],
    ]);
    // The pool really was held when a step saved.
    expect(busy.saves()).toBeGreaterThan(0);
  }, 90_000);
});
