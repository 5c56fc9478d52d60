import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { startStubLlm, type StubServer } from "../llm-stub/stub-server";
import { makeUser } from "../testing/fixtures";
import { projectWithFramedVideos } from "../testing/judge-fixtures";
import { waitFor, WorkerProcesses } from "../testing/worker-processes";
import { createEndpoint } from "./endpoints";
import { PIPELINES } from "./pipelines";
import { pgBossQueue, startBoss } from "./queue";
import { createRun } from "./runs";

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
    const endpoint = await createEndpoint(prisma, owner, projectId, {
      name: "stub", baseUrl: stub.baseURL, model: "stub-vision", apiKey: null, imageDetail: "low", temperature: 0,
      maxConcurrency: 4, requestsPerMinute: null, timeoutSeconds: 30, structuredOutput: true, pricePer1kInput: null, pricePer1kOutput: null,
    });
    const first = workers.start().child;
    const run = await createRun({ prisma, queue: pgBossQueue(boss), pipelines: PIPELINES }, owner, projectId, { pipeline: "hallucination", endpointId: endpoint.id });
    const totalSteps = 3 * (3 + 3 + 1 + 1 + 3 + 3);

    await waitFor(async () => (await prisma.stepResult.count({ where: { runId: run.id, status: "done" } })) >= 8, 60_000, "some finished steps");
    await workers.kill(first);
    const doneBefore = await prisma.stepResult.findMany({ where: { runId: run.id, status: "done" }, select: { id: true, finishedAt: true, attempts: true } });
    expect(doneBefore.length).toBeGreaterThanOrEqual(8);
    expect(doneBefore.length).toBeLessThan(totalSteps);
    const requestsBefore = stub.requests.length;

    workers.start();
    await waitFor(async () => (await prisma.judgeRun.findUnique({ where: { id: run.id } }))?.status === "done", 120_000, "the run to finish");

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
});
