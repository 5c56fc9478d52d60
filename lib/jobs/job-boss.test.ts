/**
 * Issue 56 item 3: one pg-boss instance per process for every queue. Everything the web process sends (video jobs,
 * a batch check, an alignment, both kinds of deletion, a webhook ping, the fan-out and an attempt) goes through one
 * instance: pg-boss's constructor is counted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { projectAccess } from "../authz/permissions";

const constructed = vi.hoisted(() => ({ count: 0 }));
vi.mock("pg-boss", async (importOriginal) => {
  const actual = await importOriginal<typeof import("pg-boss")>();
  class CountedPgBoss extends actual.PgBoss {
    constructor(...args: ConstructorParameters<typeof actual.PgBoss>) {
      super(...args);
      constructed.count += 1;
    }
  }
  return { ...actual, PgBoss: CountedPgBoss };
});

import { appAlignmentQueue, ALIGNMENT_QUEUE } from "../alignment/alignment-queue";
import { prisma } from "../db/prisma";
import { appDeletionQueue } from "../deletions/deletion-queues";
import { appJudgeQueue } from "../judge/app-judge";
import { JUDGE_BATCH_QUEUE, JUDGE_QUEUE } from "../judge/workers/queue";
import { makeUser } from "../../testkit/testing/fixtures";
import { fanOutEvents } from "../webhooks/deliver";
import { deliverDue } from "../../testkit/testing/webhook-delivery";
import { WEBHOOK_QUEUE } from "../webhooks/webhook-queue";
import { createWebhook, pingWebhook } from "../webhooks/webhooks";
import { createWebhookSchema } from "../webhooks/webhooks.validation";
import { jobBoss, startJobs, stopJobs } from "./job-boss";

const QUEUES = [JUDGE_QUEUE, JUDGE_BATCH_QUEUE, ALIGNMENT_QUEUE, "delete-project", "delete-videos", WEBHOOK_QUEUE];

beforeAll(() => {
  constructed.count = 0;
});
afterAll(async () => {
  const boss = await jobBoss();
  // The jobs sent name nothing that exists; no worker of this database should meet them.
  for (const queue of QUEUES) await boss.deleteAllJobs(queue).catch(() => {});
  await stopJobs();
});

describe("the process's job queue", () => {
  it("is one pg-boss instance for every queue the web process sends to", async () => {
    const owner = await makeUser();
    const project = await prisma.project.create({
      data: { name: "One queue", members: { create: { userId: owner.userId, role: "owner" } } },
    });
    const hook = await createWebhook(
      prisma,
      await projectAccess(prisma, owner, project.id, "webhooks.manage"),
      createWebhookSchema.parse({ url: "http://127.0.0.1:9/hook", events: ["run.finished"] }),
    );

    await appJudgeQueue().enqueue([{ runId: "no-run", videoId: "no-video" }]);
    await appJudgeQueue().startBatchChecks!("no-run");
    await appAlignmentQueue().enqueue("no-alignment");
    await appDeletionQueue("project").enqueue("no-project-deletion");
    await appDeletionQueue("videos").enqueue("no-video-deletion");
    const { deliveryId } = await pingWebhook(
      prisma,
      await projectAccess(prisma, owner, project.id, "webhooks.manage"),
      hook.id,
    );
    await fanOutEvents(prisma);
    expect(await deliverDue({ prisma })).toBeGreaterThan(0);
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({
      attempts: 1,
      status: "pending",
    });

    expect(constructed.count).toBe(1);
    const boss = await jobBoss();
    const made = new Set((await boss.getQueues()).map((queue) => queue.name));
    for (const queue of QUEUES) expect(made).toContain(queue);
    // Each feature's jobs are on that one instance's queues.
    expect(await boss.findJobs(JUDGE_QUEUE, { data: { runId: "no-run" } })).toHaveLength(1);
    expect(await boss.findJobs(ALIGNMENT_QUEUE, { data: { alignmentId: "no-alignment" } })).toHaveLength(1);
    expect(await boss.findJobs("delete-videos", { data: { deletionId: "no-video-deletion" } })).toHaveLength(1);
  });

  it("refuses a second start with other settings, and starts again after a stop", async () => {
    const first = await jobBoss();
    expect(() => startJobs({ connectionString: process.env.DATABASE_URL!, supervise: true })).toThrow(
      /already started/,
    );
    expect(await startJobs({ connectionString: process.env.DATABASE_URL!, supervise: false })).toBe(first);
    await stopJobs();
    const again = await jobBoss();
    expect(again).not.toBe(first);
    expect(constructed.count).toBe(2);
  });
});
