/**
 * The webhook worker's two jobs, run by every worker process (scripts/worker.ts) and safe side by side:
 * - fan-out: each event the database wrote (webhook_event) becomes one delivery per subscribed webhook, with its
 *   JSON body fixed then, and the event row is deleted, in one transaction;
 * - delivery: each due delivery is taken for a while (lockedUntil, so a worker killed mid-send leaves it to
 *   another), POSTed signed, and logged. A 2xx is delivered; anything else is tried again later with backoff
 *   (30 s, 2 min, 10 min, 30 min, 2 h, 6 h), and after the last attempt it is failed.
 *
 * The delivery row is the job: its schedule and its log are one row, written in the transaction that fans the
 * event out, so no event is lost between the database and a job queue.
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { appUrl } from "../config/app-url";
import { decryptSecret } from "../crypto/secret-box";
import { guardedFetch } from "../judge/guarded-fetch";
import { rootLogger } from "../observability/logger";
import { signedHeaders } from "./signature";
import { webhookAppSecret } from "./webhooks";

/** Seconds before attempt n+1 after n failed ones; its length is the number of attempts. */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 7200, 21600];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
const ATTEMPT_TIMEOUT_MS = 10_000;
const LOCK_SECONDS = 60;
/** The start of an answer kept in the log. */
const RESPONSE_LOG_CHARS = 2000;

export interface DeliveryDeps {
  prisma: PrismaClient;
  /** The `fetch` deliveries go through (the guarded one: the endpoint URL policy at connect time). */
  fetch?: typeof fetch;
  now?: () => Date;
  /** Seconds before the next attempt after `attempts` failed ones (tests shorten it). */
  retryDelaySeconds?: (attempts: number) => number;
}

type Payload = {
  event: string;
  occurredAt: string;
  project: { id: string; name: string };
  data: Record<string, unknown>;
};

async function payloadOf(
  prisma: PrismaClient,
  event: { projectId: string; event: string; subjectId: string; occurredAt: Date },
): Promise<Payload | null> {
  const project = await prisma.project.findUnique({ where: { id: event.projectId }, select: { id: true, name: true } });
  if (!project) return null;
  const base = `${appUrl()}/projects/${project.id}`;
  const wrap = (data: Record<string, unknown>): Payload => ({
    event: event.event,
    occurredAt: event.occurredAt.toISOString(),
    project,
    data,
  });
  if (event.event === "run.finished" || event.event === "run.failed") {
    const run = await prisma.judgeRun.findUnique({
      where: { id: event.subjectId },
      select: { id: true, pipeline: true, status: true, createdAt: true, startedAt: true, finishedAt: true },
    });
    if (!run) return null;
    const byStatus = await prisma.runVideo.groupBy({
      by: ["status"],
      where: { runId: run.id },
      _count: { _all: true },
    });
    const videos = Object.fromEntries(byStatus.map((row) => [row.status, row._count._all]));
    return wrap({
      run: {
        ...run,
        createdAt: run.createdAt.toISOString(),
        startedAt: run.startedAt?.toISOString() ?? null,
        finishedAt: run.finishedAt?.toISOString() ?? null,
        videos,
        url: `${base}/runs/${run.id}`,
      },
    });
  }
  if (event.event === "queue.finished") {
    const queue = await prisma.reviewQueue.findUnique({
      where: { id: event.subjectId },
      select: { id: true, name: true, runId: true, scope: true, itemCount: true, reviewersPerItem: true },
    });
    return queue ? wrap({ queue: { ...queue, url: `${base}/queues/${queue.id}` } }) : null;
  }
  if (event.event === "label_set.imported") {
    const set = await prisma.labelSet.findUnique({
      where: { id: event.subjectId },
      select: { id: true, name: true, format: true, fileName: true, annotators: true, createdAt: true },
    });
    if (!set) return null;
    return wrap({ labelSet: { ...set, createdAt: set.createdAt.toISOString(), agreementUrl: `${base}/agreement` } });
  }
  if (event.event === "alignment.finished") {
    const run = await prisma.alignmentRun.findUnique({
      where: { id: event.subjectId },
      select: {
        id: true,
        status: true,
        rubricTaskId: true,
        rubricVersionId: true,
        error: true,
        report: true,
        finishedAt: true,
      },
    });
    if (!run) return null;
    const report = run.report as {
      heldOut?: {
        baseline: { kappa: unknown; f1: unknown };
        best: { kappa: unknown; f1: unknown };
        difference: { kappa: unknown };
      } | null;
      calls?: number;
      costUsd?: number;
    } | null;
    const heldOut = report?.heldOut
      ? {
          baseline: { kappa: report.heldOut.baseline.kappa, f1: report.heldOut.baseline.f1 },
          best: { kappa: report.heldOut.best.kappa, f1: report.heldOut.best.f1 },
          kappaDifference: report.heldOut.difference.kappa,
        }
      : null;
    return wrap({
      alignment: {
        id: run.id,
        status: run.status,
        rubricTaskId: run.rubricTaskId,
        savedRubricVersionId: run.rubricVersionId,
        error: run.error,
        heldOut,
        calls: report?.calls ?? null,
        costUsd: report?.costUsd ?? null,
        finishedAt: run.finishedAt?.toISOString() ?? null,
        url: `${base}/alignment`,
      },
    });
  }
  return null;
}

/** Turns the database's events into deliveries (at most `limit` events per call); returns how many deliveries it made. */
export async function fanOutEvents(prisma: PrismaClient, limit = 100): Promise<number> {
  return prisma.$transaction(async (tx) => {
    const events = await tx.$queryRaw<
      { id: bigint; projectId: string; event: string; subjectId: string; occurredAt: Date }[]
    >`
      SELECT id, "projectId", event, "subjectId", "occurredAt" FROM webhook_event ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
    let made = 0;
    for (const event of events) {
      const hooks = await tx.webhook.findMany({
        where: { projectId: event.projectId, enabled: true, events: { has: event.event } },
        select: { id: true },
      });
      const payload = hooks.length ? await payloadOf(tx as unknown as PrismaClient, event) : null;
      if (payload) {
        await tx.webhookDelivery.createMany({
          data: hooks.map((hook) => ({
            webhookId: hook.id,
            event: event.event,
            payload: payload as unknown as Prisma.InputJsonObject,
          })),
        });
        made += hooks.length;
      }
    }
    if (events.length) await tx.webhookEvent.deleteMany({ where: { id: { in: events.map((e) => e.id) } } });
    return made;
  });
}

/** One attempt of every due delivery (up to `limit`); returns how many were attempted. */
export async function deliverDue(deps: DeliveryDeps, limit = 20): Promise<number> {
  const { prisma } = deps;
  const now = deps.now?.() ?? new Date();
  const taken = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE webhook_delivery SET "lockedUntil" = ${new Date(now.getTime() + LOCK_SECONDS * 1000)}
    WHERE id IN (
      SELECT id FROM webhook_delivery
      WHERE status = 'pending' AND "nextAttemptAt" <= ${now} AND ("lockedUntil" IS NULL OR "lockedUntil" < ${now})
      ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  await Promise.all(taken.map(({ id }) => attempt(deps, id)));
  return taken.length;
}

async function attempt(deps: DeliveryDeps, deliveryId: string): Promise<void> {
  const { prisma } = deps;
  const delivery = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { webhook: true } });
  if (!delivery) return;
  const body = JSON.stringify(delivery.payload);
  const sentAt = deps.now?.() ?? new Date();
  let statusCode: number | null = null;
  let response: string;
  try {
    const secret = decryptSecret(delivery.webhook.secretEncrypted, webhookAppSecret());
    const answer = await (deps.fetch ?? defaultFetch())(delivery.webhook.url, {
      method: "POST",
      headers: { ...signedHeaders(secret, delivery.id, body, sentAt), "framejury-event": delivery.event },
      body,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    statusCode = answer.status;
    response = (await answer.text().catch(() => "")).slice(0, RESPONSE_LOG_CHARS);
  } catch (error) {
    response =
      error instanceof Error
        ? error.name === "TimeoutError"
          ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
          : error.message
        : String(error);
  }
  const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const attempts = delivery.attempts + 1;
  await prisma.webhookDelivery.update({
    where: { id: deliveryId },
    data: {
      attempts,
      lastAttemptAt: sentAt,
      lastStatusCode: statusCode,
      lastResponse: response,
      lockedUntil: null,
      ...(ok
        ? { status: "delivered", deliveredAt: new Date() }
        : attempts >= MAX_ATTEMPTS
          ? { status: "failed" }
          : { nextAttemptAt: new Date(sentAt.getTime() + retryDelay(deps, attempts) * 1000) }),
    },
  });
  if (!ok)
    rootLogger().warn({ deliveryId, webhookId: delivery.webhookId, statusCode, attempts }, "webhook delivery failed");
}

function retryDelay(deps: DeliveryDeps, attempts: number): number {
  return deps.retryDelaySeconds ? deps.retryDelaySeconds(attempts) : (RETRY_DELAYS_SECONDS[attempts - 1] ?? 0);
}

let sharedFetch: typeof fetch | null = null;
const defaultFetch = () => (sharedFetch ??= guardedFetch());

/** The worker's loop: fan out, then deliver, then wait `intervalMs`. Returns its stop function. */
export function startWebhookDelivery(deps: DeliveryDeps, options: { intervalMs?: number } = {}): () => Promise<void> {
  const intervalMs = options.intervalMs ?? 2000;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const loop = async (): Promise<void> => {
    try {
      await fanOutEvents(deps.prisma);
      // A backlog goes out in rounds of 20 without waiting; at most 10 rounds before the next fan-out.
      for (let round = 0; round < 10 && !stopped && (await deliverDue(deps)) > 0; round++);
    } catch (error) {
      rootLogger().error({ err: error }, "webhook delivery loop");
    }
    if (!stopped) timer = setTimeout(() => void (current = loop()), intervalMs);
  };
  let current = loop();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await current;
  };
}
