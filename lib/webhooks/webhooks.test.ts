/**
 * Issue 28 item 5: webhooks. Events come from the database itself (a run finishing or failing, a label set
 * imported, a queue's last item done), are fanned out to the subscribed webhooks and POSTed signed (Standard
 * Webhooks, checked with that project's own library), retried with backoff, and logged.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { createRun } from "../judge/runs/runs";
import { createLabelSet } from "../label-sets/label-sets";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";

import { makeUser } from "../../testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { jobBoss, stopJobs } from "../jobs/job-boss";
import { fanOutEvents, MAX_ATTEMPTS } from "./deliver";
import { deliverDue } from "../../testkit/testing/webhook-delivery";
import { resendPendingDeliveries, WEBHOOK_QUEUE } from "./webhook-queue";
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  redeliver,
  updateWebhook,
} from "./webhooks";
import { createWebhookSchema, updateWebhookSchema } from "./webhooks.validation";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { projectAccess } from "../authz/permissions";

type Received = { headers: http.IncomingHttpHeaders; body: string };

/** A local receiver answering each request with the next of `answers` (then 200). */
async function receiver(answers: number[] = []) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      const status = answers.shift() ?? 200;
      res
        .writeHead(status, { "content-type": "text/plain" })
        .end(status === 200 ? "thanks" : `nope ${received.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Fans out and delivers until nothing is due (with retries due at once). */
async function pump(retryDelaySeconds = () => 0) {
  await fanOutEvents(prisma);
  for (let i = 0; i < 20 && (await deliverDue({ prisma, retryDelaySeconds })) > 0; i++);
}

let stub: StubServer;
let owner: Actor;
let reviewer: Actor;
let project: { projectId: string; videoIds: string[] };
let endpointId: string;
const allowPrivate = process.env.ALLOW_PRIVATE_ENDPOINTS;

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_ENDPOINTS = "1";
  stub = await startStubLlm();
  owner = await makeUser();
  reviewer = await makeUser();
  project = await projectWithFramedVideos(prisma, owner, { videoCount: 2, keyFrames: 2, name: "Webhooks" });
  await prisma.projectMember.create({
    data: { projectId: project.projectId, userId: reviewer.userId, role: "reviewer" },
  });
  endpointId = (await createStubEndpoint(prisma, owner, project.projectId, stub.baseURL)).id;
});
afterAll(async () => {
  await stopJobs();
  await stub?.close();
  if (allowPrivate === undefined) delete process.env.ALLOW_PRIVATE_ENDPOINTS;
  else process.env.ALLOW_PRIVATE_ENDPOINTS = allowPrivate;
});

const judgeDeps = () => ({ prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines });
const hookInput = (url: string, events: string[]) => createWebhookSchema.parse({ url, events });

describe("webhooks", () => {
  it("POSTs run.finished, signed so that the Standard Webhooks library verifies it, with the run's counts and link", async () => {
    const target = await receiver();
    try {
      const hook = await createWebhook(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hookInput(target.url, ["run.finished"]),
      );
      expect(hook.secret).toMatch(/^whsec_/);
      expect(
        JSON.stringify(
          await listWebhooks(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage")),
        ),
      ).not.toContain(hook.secret);
      const run = await createRun(judgeDeps(), await projectAccess(prisma, owner, project.projectId, "runs.manage"), {
        pipeline: "hallucination",
        endpointId,
      });
      expect((await prisma.judgeRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("done");
      await pump();
      expect(target.received).toHaveLength(1);
      const [delivery] = target.received;
      const headers = Object.fromEntries(Object.entries(delivery!.headers).map(([k, v]) => [k, String(v)]));
      // Throws when the signature, the id or the timestamp does not hold.
      const verified = new StandardWebhook(hook.secret).verify(delivery!.body, headers) as {
        event: string;
        project: { id: string };
        data: { run: { id: string; status: string; videos: Record<string, number>; url: string } };
      };
      expect(verified.event).toBe("run.finished");
      expect(verified.project.id).toBe(project.projectId);
      expect(verified.data.run).toMatchObject({ id: run.id, status: "done", videos: { done: 2 } });
      expect(verified.data.run.url).toContain(`/projects/${project.projectId}/runs/${run.id}`);
      expect(() => new StandardWebhook(hook.secret).verify(delivery!.body.replace("done", "dona"), headers)).toThrow();
      const [logged] = await listDeliveries(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
        { limit: 10 },
      );
      expect(logged).toMatchObject({
        event: "run.finished",
        status: "delivered",
        attempts: 1,
        lastStatusCode: 200,
        lastResponse: "thanks",
      });
      await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
    } finally {
      await target.close();
    }
  });

  it("retries a receiver that fails twice with backoff, keeps the same webhook-id, and logs each answer", async () => {
    const target = await receiver([500, 503]);
    try {
      const hook = await createWebhook(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hookInput(target.url, ["label_set.imported"]),
      );
      await createLabelSet(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "videos.import"),
        { name: "hooked labels", format: "generic", fileName: "l.csv", sha256: "0".repeat(64), citation: "" },
        [],
      );
      await fanOutEvents(prisma);
      const delays: number[] = [];
      // The real schedule's first wait (30 s), then none.
      const backoff = (attempts: number) => (delays.push(attempts), attempts === 1 ? 30 : 0);
      await deliverDue({ prisma, retryDelaySeconds: backoff });
      let [logged] = await listDeliveries(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
        { limit: 10 },
      );
      expect(logged).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastResponse: "nope 1" });
      expect(Date.parse(logged!.nextAttemptAt!) - Date.parse(logged!.lastAttemptAt!)).toBe(30_000);
      // Not due before its backoff: the second attempt's job starts 30 s after the first.
      expect(await deliverDue({ prisma, retryDelaySeconds: backoff })).toBe(0);
      await prisma.$executeRawUnsafe(
        `UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND state IN ('created', 'retry')`,
        WEBHOOK_QUEUE,
      );
      await deliverDue({ prisma, retryDelaySeconds: backoff });
      await deliverDue({ prisma, retryDelaySeconds: backoff });
      [logged] = await listDeliveries(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
        { limit: 10 },
      );
      expect(logged).toMatchObject({
        event: "label_set.imported",
        status: "delivered",
        attempts: 3,
        lastStatusCode: 200,
      });
      expect(delays).toEqual([1, 2]);
      expect(target.received).toHaveLength(3);
      expect(new Set(target.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      expect(new Set(target.received.map((r) => r.body)).size).toBe(1);
      expect(JSON.parse(target.received[0]!.body).data.labelSet).toMatchObject({
        name: "hooked labels",
        format: "generic",
      });
      await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
    } finally {
      await target.close();
    }
  });

  it("gives up after the last attempt, and an owner's redeliver sends it again", async () => {
    const target = await receiver(Array(MAX_ATTEMPTS).fill(500));
    try {
      const hook = await createWebhook(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hookInput(target.url, ["run.failed"]),
      );
      const { deliveryId } = await pingWebhook(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
      );
      await pump();
      let [logged] = await listDeliveries(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
        { limit: 10 },
      );
      expect(logged).toMatchObject({ id: deliveryId, event: "ping", status: "failed", attempts: MAX_ATTEMPTS });
      await redeliver(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
        deliveryId,
      );
      await pump();
      [logged] = await listDeliveries(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
        { limit: 10 },
      );
      expect(logged).toMatchObject({ status: "delivered", attempts: 1 });
      await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
    } finally {
      await target.close();
    }
  });

  it("sends a waiting delivery whose job was lost again as a worker starts, and a queued one only once", async () => {
    const target = await receiver();
    try {
      const hook = await createWebhook(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hookInput(target.url, ["run.finished"]),
      );
      const { deliveryId: queued } = await pingWebhook(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
      );
      const { deliveryId: lost } = await pingWebhook(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
      );
      // Its job is gone, as after a restore (pg-boss's tables are not in a backup).
      await prisma.$executeRawUnsafe(
        `DELETE FROM pgboss.job WHERE name = $1 AND data->>'deliveryId' = $2`,
        WEBHOOK_QUEUE,
        lost,
      );
      expect(await resendPendingDeliveries(prisma, await jobBoss())).toBeGreaterThanOrEqual(2);
      await pump();
      expect(target.received.map((r) => r.headers["webhook-id"]).sort()).toEqual([queued, lost].sort());
      const logged = await listDeliveries(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
        { limit: 10 },
      );
      expect(logged.map((d) => [d.status, d.attempts])).toEqual([
        ["delivered", 1],
        ["delivered", 1],
      ]);
      await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
    } finally {
      await target.close();
    }
  });

  it("logs a receiver that does not answer as a failed attempt with the reason", async () => {
    // A port that was just free (port 9, on fetch's list of ports never called, would be refused before connecting).
    const closed = await receiver();
    await closed.close();
    const hook = await createWebhook(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hookInput(closed.url.replace("/hook", "/closed"), ["run.finished"]),
    );
    await pingWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
    await deliverDue({ prisma });
    const [logged] = await listDeliveries(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hook.id,
      { limit: 10 },
    );
    expect(logged).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    expect(logged!.lastResponse).toMatch(/ECONNREFUSED/);
    await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
  });

  it("refuses at connect time a delivery to a name that resolves to a private address, with nothing sent", async () => {
    const target = await receiver();
    try {
      // Saved while private addresses were allowed; the delivery goes out after they no longer are.
      const hook = await createWebhook(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hookInput(target.url.replace("127.0.0.1", "localhost"), ["run.finished"]),
      );
      await pingWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
      delete process.env.ALLOW_PRIVATE_ENDPOINTS;
      try {
        await deliverDue({ prisma });
      } finally {
        process.env.ALLOW_PRIVATE_ENDPOINTS = "1";
      }
      const [logged] = await listDeliveries(
        prisma,
        await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
        hook.id,
        { limit: 10 },
      );
      expect(logged).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
      expect(logged!.lastResponse).toMatch(/localhost resolves to a loopback address/);
      expect(target.received).toHaveLength(0);
      await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
    } finally {
      await target.close();
    }
  });

  it("emits queue.finished exactly once when two reviewers finish the last two items at once", async () => {
    const run = await prisma.judgeRun.create({
      data: { projectId: project.projectId, pipeline: "hallucination", endpointId, createdById: owner.userId },
    });
    const hook = await createWebhook(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hookInput("http://127.0.0.1:9/unused", ["queue.finished"]),
    );
    const queue = await prisma.reviewQueue.create({
      data: {
        projectId: project.projectId,
        name: "race",
        runId: run.id,
        scope: "verdict",
        createdById: owner.userId,
        itemCount: 2,
      },
    });
    const items = await Promise.all(
      project.videoIds.map((videoId, position) =>
        prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId, position } }),
      ),
    );
    const events = () => prisma.webhookEvent.count({ where: { event: "queue.finished", subjectId: queue.id } });
    // Both transactions take their item's row before either commits, so each would see the other's item open.
    let release!: () => void;
    const bothUpdated = new Promise<void>((resolve) => (release = resolve));
    let updated = 0;
    await Promise.all(
      items.map((item) =>
        prisma.$transaction(async (tx) => {
          const done = tx.reviewQueueItem.update({ where: { id: item.id }, data: { doneCount: { increment: 1 } } });
          if (++updated === 2) release();
          await Promise.race([done.then(() => bothUpdated), bothUpdated]);
          await done;
        }),
      ),
    );
    expect(await events()).toBe(1);
    // A later count past the queue's target is no new event.
    await prisma.reviewQueueItem.update({ where: { id: items[0]!.id }, data: { doneCount: { increment: 1 } } });
    expect(await events()).toBe(1);
    await fanOutEvents(prisma);
    const [logged] = await listDeliveries(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hook.id,
      { limit: 10 },
    );
    expect(logged).toMatchObject({
      event: "queue.finished",
      payload: { data: { queue: { id: queue.id, name: "race", itemCount: 2 } } },
    });
    await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
  });

  it("emits alignment.finished when an alignment ends, with its held-out numbers and link", async () => {
    const hook = await createWebhook(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hookInput("http://127.0.0.1:9/unused", ["alignment.finished"]),
    );
    const alignment = await prisma.alignmentRun.create({
      data: {
        projectId: project.projectId,
        rubricTaskId: "rt",
        input: {},
        createdById: owner.userId,
        status: "running",
      },
    });
    const heldOut = {
      baseline: { n: 8, kappa: 0.2, f1: 0.5 },
      best: { n: 8, kappa: 0.7, f1: 0.8 },
      difference: { kappa: { estimate: 0.5 }, f1: { estimate: 0.3 } },
      baselineRunId: "a",
      bestRunId: "b",
    };
    await prisma.alignmentRun.update({ where: { id: alignment.id }, data: { progress: { done: 1, total: 2 } } });
    expect(await prisma.webhookEvent.count({ where: { event: "alignment.finished" } })).toBe(0);
    await prisma.alignmentRun.update({
      where: { id: alignment.id },
      data: { status: "done", report: { heldOut, calls: 12, costUsd: 0 }, finishedAt: new Date() },
    });
    await fanOutEvents(prisma);
    const [logged] = await listDeliveries(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hook.id,
      { limit: 10 },
    );
    expect(logged).toMatchObject({
      event: "alignment.finished",
      payload: {
        data: {
          alignment: {
            id: alignment.id,
            status: "done",
            heldOut: { baseline: { kappa: 0.2 }, best: { kappa: 0.7 }, kappaDifference: { estimate: 0.5 } },
            calls: 12,
          },
        },
      },
    });
    await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
  });

  it("writes no event for a project without a webhook for it, nor for a disabled webhook", async () => {
    const hook = await createWebhook(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hookInput("http://127.0.0.1:9/unused", ["run.failed"]),
    );
    await createLabelSet(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "videos.import"),
      { name: "unhooked labels", format: "generic", fileName: "l.csv", sha256: "0".repeat(64), citation: "" },
      [],
    );
    expect(await prisma.webhookEvent.count({ where: { event: "label_set.imported" } })).toBe(0);
    await updateWebhook(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hook.id,
      updateWebhookSchema.parse({ enabled: false, events: ["label_set.imported"] }),
    );
    await createLabelSet(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "videos.import"),
      { name: "disabled labels", format: "generic", fileName: "l.csv", sha256: "0".repeat(64), citation: "" },
      [],
    );
    expect(await prisma.webhookEvent.count({ where: { event: "label_set.imported" } })).toBe(0);
    await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
  });

  it("is for owners only, refuses private addresses unless allowed, and rotates the secret on request", async () => {
    await expect(projectAccess(prisma, reviewer, project.projectId, "webhooks.manage")).rejects.toMatchObject({
      status: 403,
    });
    await expect(projectAccess(prisma, reviewer, project.projectId, "webhooks.manage")).rejects.toMatchObject({
      status: 403,
    });
    const stranger = await makeUser();
    await expect(projectAccess(prisma, stranger, project.projectId, "webhooks.manage")).rejects.toMatchObject({
      status: 404,
    });
    delete process.env.ALLOW_PRIVATE_ENDPOINTS;
    try {
      await expect(
        createWebhook(
          prisma,
          await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
          hookInput("http://127.0.0.1:8080/hook", ["run.finished"]),
        ),
      ).rejects.toThrow(/loopback/);
      await expect(
        createWebhook(
          prisma,
          await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
          hookInput("http://10.1.2.3/hook", ["run.finished"]),
        ),
      ).rejects.toThrow(/private/);
    } finally {
      process.env.ALLOW_PRIVATE_ENDPOINTS = "1";
    }
    expect(
      createWebhookSchema.safeParse({ url: "https://user:pw@example.org/", events: ["run.finished"] }).success,
    ).toBe(false);
    expect(createWebhookSchema.safeParse({ url: "https://example.org/", events: [] }).success).toBe(false);
    expect(createWebhookSchema.safeParse({ url: "https://example.org/", events: ["run.deleted"] }).success).toBe(false);
    expect(
      createWebhookSchema.safeParse({ url: "https://example.org/hook?token=abc", events: ["run.finished"] }).success,
    ).toBe(true);
    const hook = await createWebhook(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hookInput("http://127.0.0.1:9/x", ["run.finished"]),
    );
    const rotated = await updateWebhook(
      prisma,
      await projectAccess(prisma, owner, project.projectId, "webhooks.manage"),
      hook.id,
      updateWebhookSchema.parse({ rotateSecret: true }),
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);
    // Through an access to another project of the same owner, the webhook is not found.
    const { projectId: elsewhere } = await projectWithFramedVideos(prisma, owner, { videoCount: 0, keyFrames: 1 });
    const elsewhereAccess = await projectAccess(prisma, owner, elsewhere, "webhooks.manage");
    await expect(deleteWebhook(prisma, elsewhereAccess, hook.id)).rejects.toThrow(
      new NotFoundError("No such webhook."),
    );
    await deleteWebhook(prisma, await projectAccess(prisma, owner, project.projectId, "webhooks.manage"), hook.id);
  });
});
