/**
 * Issue 56 item 3: a webhook attempt is a pg-boss job, so a worker killed mid-delivery loses nothing. A real worker
 * process fans an event out and POSTs it; the receiver holds the request while the worker is killed with SIGKILL;
 * pg-boss gives the job to a second worker once the first's heartbeat stops, and the delivery arrives and is logged.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { createLabelSet } from "../label-sets/label-sets";
import { makeUser } from "../../testkit/testing/fixtures";
import { waitFor, WorkerProcesses } from "../../testkit/testing/worker-processes";
import { createWebhook, deleteWebhook, listDeliveries } from "./webhooks";
import { createWebhookSchema } from "./webhooks.validation";
import { projectAccess } from "../authz/permissions";

const workers = new WorkerProcesses();
afterAll(() => workers.killAll());

/** A receiver that never answers its first request and answers every later one with 200. */
async function holdingReceiver() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      if (received.length > 1) res.writeHead(200).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("a worker killed in the middle of a webhook delivery", () => {
  it(
    "leaves the attempt to another worker, which delivers the same body with the same webhook-id",
    { timeout: 180_000 },
    async () => {
      const owner = await makeUser();
      const project = await prisma.project.create({
        data: { name: "Killed delivery", members: { create: { userId: owner.userId, role: "owner" } } },
      });
      const target = await holdingReceiver();
      try {
        const hook = await createWebhook(
          prisma,
          await projectAccess(prisma, owner, project.id, "webhooks.manage"),
          createWebhookSchema.parse({ url: target.url, events: ["label_set.imported"] }),
        );
        const first = workers.start();
        await first.ready;
        // The database writes the event; the worker fans it out and sends it.
        await createLabelSet(
          prisma,
          await projectAccess(prisma, owner, project.id, "videos.import"),
          { name: "labels", format: "generic", fileName: "l.csv", sha256: "0".repeat(64), citation: "" },
          [],
        );
        await waitFor(async () => target.received.length === 1, 60_000, "the first worker's POST");
        await workers.kill(first.child);
        const [held] = await listDeliveries(
          prisma,
          await projectAccess(prisma, owner, project.id, "webhooks.manage"),
          hook.id,
          { limit: 10 },
        );
        expect(held).toMatchObject({ status: "pending", attempts: 0 });

        await workers.start().ready;
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
          120_000,
          "the second worker's delivery",
        );
        expect(delivered).toMatchObject({ event: "label_set.imported", attempts: 1, lastStatusCode: 200 });
        expect(target.received).toHaveLength(2);
        expect(target.received[1]!.headers["webhook-id"]).toBe(target.received[0]!.headers["webhook-id"]);
        expect(target.received[1]!.body).toBe(target.received[0]!.body);
        expect(await prisma.webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(1);
        await deleteWebhook(prisma, await projectAccess(prisma, owner, project.id, "webhooks.manage"), hook.id);
      } finally {
        await target.close();
      }
    },
  );
});
