/**
 * Issue 56 item 3: what a worker starts (judging, batch checks, alignments, deletions, webhook deliveries) runs on one
 * pg-boss instance, and so do the runs its alignments send: pg-boss's constructor is counted. The worker runs in this
 * process, and its webhook queue delivers an event the database wrote.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { projectAccess } from "../../lib/authz/permissions";

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

import { ALIGNMENT_QUEUE } from "../../lib/alignment/alignment-queue";
import { prisma } from "../../lib/db/prisma";
import { jobBoss, stopJobs } from "../../lib/jobs/job-boss";
import { appJudgeQueue, workerJudgeDeps } from "../../lib/judge/app-judge";
import { JUDGE_BATCH_QUEUE, JUDGE_QUEUE } from "../../lib/judge/workers/queue";
import { createLabelSet } from "../../lib/label-sets/label-sets";
import { makeUser } from "../../testkit/testing/fixtures";
import { waitFor } from "../../testkit/testing/worker-processes";
import { WEBHOOK_QUEUE } from "../../lib/webhooks/webhook-queue";
import { createWebhook, deleteWebhook, listDeliveries } from "../../lib/webhooks/webhooks";
import { createWebhookSchema } from "../../lib/webhooks/webhooks.validation";
import { startWorkerJobs } from "./worker-jobs";

afterAll(() => stopJobs());

describe("a worker's jobs", () => {
  it("run on one pg-boss instance, which also delivers webhooks", { timeout: 90_000 }, async () => {
    const received: string[] = [];
    const server = http.createServer((req, res) => {
      req.on("data", () => {});
      req.on("end", () => (received.push(req.url ?? ""), res.writeHead(200).end("thanks")));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const owner = await makeUser();
    const project = await prisma.project.create({
      data: { name: "Worker jobs", members: { create: { userId: owner.userId, role: "owner" } } },
    });
    const hook = await createWebhook(
      prisma,
      await projectAccess(prisma, owner, project.id, "webhooks.manage"),
      createWebhookSchema.parse({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        events: ["label_set.imported"],
      }),
    );
    const jobs = await startWorkerJobs({
      connectionString: process.env.DATABASE_URL!,
      concurrency: 1,
      judgeDeps: workerJudgeDeps(),
    });
    try {
      // An alignment's runs are sent as a request's are, from inside the worker.
      await appJudgeQueue().enqueue([]);
      await createLabelSet(
        prisma,
        await projectAccess(prisma, owner, project.id, "videos.import"),
        { name: "labels", format: "generic", fileName: "l.csv", sha256: "0".repeat(64), citation: "" },
        [],
      );
      const delivered = await waitFor(
        async () => {
          const [logged] = await listDeliveries(
            prisma,
            await projectAccess(prisma, owner, project.id, "webhooks.manage"),
            hook.id,
            { limit: 10 },
          );
          return logged?.status === "delivered" ? logged : null;
        },
        60_000,
        "the worker's delivery",
      );
      expect(delivered).toMatchObject({ event: "label_set.imported", attempts: 1, lastStatusCode: 200 });
      expect(received).toEqual(["/hook"]);

      expect(constructed.count).toBe(1);
      const made = new Set((await (await jobBoss()).getQueues()).map((queue) => queue.name));
      for (const queue of [JUDGE_QUEUE, JUDGE_BATCH_QUEUE, ALIGNMENT_QUEUE, "delete-project", "delete-videos"])
        expect(made).toContain(queue);
      expect(made).toContain(WEBHOOK_QUEUE);
    } finally {
      await jobs.stop();
      await deleteWebhook(prisma, await projectAccess(prisma, owner, project.id, "webhooks.manage"), hook.id);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(constructed.count).toBe(1);
  });
});
