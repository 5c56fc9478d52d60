/**
 * A project's webhooks: owners register a URL for some events (lib/webhooks/webhook-events.ts), read each one's
 * delivery log, send a test, and redeliver. The URL follows the judge endpoints' policy (public addresses only,
 * unless ALLOW_PRIVATE_ENDPOINTS=1), checked here and again when the worker connects (deliver.ts). A ping or a
 * redelivery is sent to the job queue with its row, in one transaction (webhook-queue.ts).
 */
import type { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { encryptSecret } from "../crypto/secret-box";
import { NotFoundError, ValidationError } from "../errors";
import { jobQueues } from "../jobs/job-boss";
import { assertEndpointUrlAllowed } from "../judge/endpoints/endpoint-url-policy";
import { PING_EVENT } from "./webhook-events";
import { newWebhookSecret } from "./signature";
import { sendDeliveryJobs, WEBHOOK_QUEUE_DEFINITION } from "./webhook-queue";
import type { createWebhookSchema, updateWebhookSchema } from "./webhooks.validation";

export function webhookAppSecret(): string {
  const secret = process.env.APP_SECRET;
  if (!secret) throw new Error("APP_SECRET is not set; it encrypts webhook signing secrets.");
  return secret;
}

type WebhookRow = Awaited<ReturnType<PrismaClient["webhook"]["findFirstOrThrow"]>>;

/** A webhook as shown to owners: never its secret. */
function publicWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The policy's check, on the URL's origin (its path and query do not change where it connects). */
async function assertWebhookUrlAllowed(url: string): Promise<void> {
  await assertEndpointUrlAllowed(new URL(url).origin);
}

/** The webhook of the access's project; one of another project is "No such webhook." as a missing one. */
async function ownedWebhook(
  prisma: PrismaClient,
  access: ProjectAccess<"webhooks.manage">,
  webhookId: string,
): Promise<WebhookRow> {
  const row = await prisma.webhook.findFirst({ where: { id: webhookId, projectId: access.projectId } });
  if (!row) throw new NotFoundError("No such webhook.");
  return row;
}

/** Registers a webhook; the answer carries its signing secret, the only time it is shown. */
export async function createWebhook(
  prisma: PrismaClient,
  access: ProjectAccess<"webhooks.manage">,
  input: z.output<typeof createWebhookSchema>,
) {
  const { actor, projectId } = access;
  await assertWebhookUrlAllowed(input.url);
  const secret = newWebhookSecret();
  const row = await prisma.webhook.create({
    data: {
      projectId,
      url: input.url,
      description: input.description,
      events: input.events,
      secretEncrypted: encryptSecret(secret, webhookAppSecret()),
      createdById: actor.userId,
    },
  });
  return { ...publicWebhook(row), secret };
}

export async function listWebhooks(prisma: PrismaClient, access: ProjectAccess<"webhooks.manage">) {
  const { projectId } = access;
  const rows = await prisma.webhook.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
  const last = await prisma.webhookDelivery.findMany({
    where: { webhookId: { in: rows.map((r) => r.id) } },
    distinct: ["webhookId"],
    orderBy: [{ webhookId: "asc" }, { createdAt: "desc" }],
    select: { webhookId: true, status: true, lastStatusCode: true, createdAt: true },
  });
  const lastBy = new Map(
    last.map((d) => [d.webhookId, { status: d.status, statusCode: d.lastStatusCode, at: d.createdAt.toISOString() }]),
  );
  return rows.map((row) => ({ ...publicWebhook(row), lastDelivery: lastBy.get(row.id) ?? null }));
}

/** Changes the fields sent; `rotateSecret` makes a new secret, returned once. */
export async function updateWebhook(
  prisma: PrismaClient,
  access: ProjectAccess<"webhooks.manage">,
  webhookId: string,
  input: z.output<typeof updateWebhookSchema>,
) {
  await ownedWebhook(prisma, access, webhookId);
  if (input.url !== undefined) await assertWebhookUrlAllowed(input.url);
  const { rotateSecret, ...fields } = input;
  const secret = rotateSecret ? newWebhookSecret() : undefined;
  const row = await prisma.webhook.update({
    where: { id: webhookId },
    data: { ...fields, ...(secret ? { secretEncrypted: encryptSecret(secret, webhookAppSecret()) } : {}) },
  });
  return { ...publicWebhook(row), ...(secret ? { secret } : {}) };
}

export async function deleteWebhook(
  prisma: PrismaClient,
  access: ProjectAccess<"webhooks.manage">,
  webhookId: string,
): Promise<void> {
  await ownedWebhook(prisma, access, webhookId);
  await prisma.webhook.delete({ where: { id: webhookId } });
}

/** The webhook's deliveries, newest first: each one's event, status, attempts and the last answer. */
export async function listDeliveries(
  prisma: PrismaClient,
  access: ProjectAccess<"webhooks.manage">,
  webhookId: string,
  options: { limit: number },
) {
  await ownedWebhook(prisma, access, webhookId);
  const rows = await prisma.webhookDelivery.findMany({
    where: { webhookId },
    orderBy: { createdAt: "desc" },
    take: options.limit,
  });
  return rows.map((d) => ({
    id: d.id,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    lastStatusCode: d.lastStatusCode,
    lastResponse: d.lastResponse,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    payload: d.payload,
  }));
}

/** Queues a `ping` delivery now (a worker sends it within seconds), to check the receiver and its signature check. */
export async function pingWebhook(prisma: PrismaClient, access: ProjectAccess<"webhooks.manage">, webhookId: string) {
  const hook = await ownedWebhook(prisma, access, webhookId);
  const boss = await jobQueues(WEBHOOK_QUEUE_DEFINITION);
  const delivery = await prisma.$transaction(async (tx) => {
    const row = await tx.webhookDelivery.create({
      data: {
        webhookId,
        event: PING_EVENT,
        payload: {
          event: PING_EVENT,
          occurredAt: new Date().toISOString(),
          project: { id: hook.projectId },
          data: { webhookId },
        },
      },
    });
    await sendDeliveryJobs(tx, boss, [{ deliveryId: row.id, attempts: 0 }]);
    return row;
  });
  return { deliveryId: delivery.id };
}

/** Sends a delivery again (a failed one, or a delivered one the receiver lost): same body, same webhook-id. */
export async function redeliver(
  prisma: PrismaClient,
  access: ProjectAccess<"webhooks.manage">,
  webhookId: string,
  deliveryId: string,
) {
  await ownedWebhook(prisma, access, webhookId);
  const boss = await jobQueues(WEBHOOK_QUEUE_DEFINITION);
  const updated = await prisma.$transaction(async (tx) => {
    const reset = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, webhookId, status: { not: "pending" } },
      data: { status: "pending", attempts: 0, nextAttemptAt: new Date() },
    });
    if (reset.count) await sendDeliveryJobs(tx, boss, [{ deliveryId, attempts: 0 }]);
    return reset;
  });
  if (updated.count === 0) {
    const exists = await prisma.webhookDelivery.findFirst({
      where: { id: deliveryId, webhookId },
      select: { id: true },
    });
    if (!exists) throw new NotFoundError("No such delivery.");
    throw new ValidationError("That delivery is still pending; it is sent on its own.");
  }
  return { id: deliveryId, status: "pending" as const };
}
