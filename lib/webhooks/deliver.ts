/**
 * The webhook worker's two jobs, run by every worker process (scripts/worker.ts) and safe side by side:
 * - fan-out: each event the database wrote (webhook_event) becomes one delivery per subscribed webhook, with its
 *   JSON body fixed then, and the event row is deleted; the deliveries' first attempts are sent to the job queue in
 *   the same transaction (lib/webhooks/webhook-queue.ts), so no event is lost between the database and the queue;
 * - delivery: each attempt is a pg-boss job. It POSTs the body signed and logs the answer on the delivery row. A 2xx
 *   is delivered; anything else is tried again later with backoff (30 s, 2 min, 10 min, 30 min, 2 h, 6 h): the next
 *   attempt's job is sent with the log, starting then. After the last attempt the delivery is failed.
 *
 * A worker killed mid-attempt leaves the job active without a heartbeat: pg-boss gives it to another worker, which
 * sends the same body with the same webhook-id (receivers drop a repeat by that id).
 */
import type { PgBoss, JobResult } from "pg-boss";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { decryptSecret } from "../crypto/secret-box";
import { jobBoss, queueOn } from "../jobs/job-boss";
import { guardedFetch } from "../judge/calls/guarded-fetch";
import { rootLogger } from "../observability/logger";
import { signedHeaders } from "./signature";
import { payloadOf } from "./webhook-payload";
import { sendDeliveryJobs, WEBHOOK_QUEUE, WEBHOOK_QUEUE_DEFINITION, type DeliveryJob } from "./webhook-queue";
import { webhookAppSecret } from "./webhooks";

/** Seconds before attempt n+1 after n failed ones; its length is the number of attempts. */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 7200, 21600];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
const ATTEMPT_TIMEOUT_MS = 10_000;
/** The start of an answer kept in the log. */
const RESPONSE_LOG_CHARS = 2000;

export interface DeliveryDeps {
  prisma: PrismaClient;
  /** The job queue attempts come from and go to (the process's, lib/jobs/job-boss.ts, unless given). */
  boss?: PgBoss;
  /** The `fetch` deliveries go through (the guarded one: the endpoint URL policy at connect time). */
  fetch?: typeof fetch;
  now?: () => Date;
  /** Seconds before the next attempt after `attempts` failed ones (tests shorten it). */
  retryDelaySeconds?: (attempts: number) => number;
}

async function bossOf(deps: { boss?: PgBoss }): Promise<PgBoss> {
  return queueOn(deps.boss ?? (await jobBoss()), WEBHOOK_QUEUE_DEFINITION);
}

/**
 * Turns the database's events into deliveries (at most `limit` events per call) and sends their first attempts;
 * returns how many deliveries it made.
 */
export async function fanOutEvents(
  prisma: PrismaClient,
  options: { limit?: number; boss?: PgBoss } = {},
): Promise<number> {
  const limit = options.limit ?? 100;
  const boss = await bossOf(options);
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
        const deliveries = await tx.webhookDelivery.createManyAndReturn({
          data: hooks.map((hook) => ({
            webhookId: hook.id,
            event: event.event,
            payload: payload as unknown as Prisma.InputJsonObject,
          })),
          select: { id: true },
        });
        await sendDeliveryJobs(
          tx,
          boss,
          deliveries.map((d) => ({ deliveryId: d.id, attempts: 0 })),
        );
        made += hooks.length;
      }
    }
    if (events.length) await tx.webhookEvent.deleteMany({ where: { id: { in: events.map((e) => e.id) } } });
    return made;
  });
}

/** The attempts of a batch of jobs, each settled on its own: a job whose log could not be written is retried. */
export async function attemptAll(
  deps: DeliveryDeps & { boss: PgBoss },
  jobs: { id: string; data: DeliveryJob }[],
): Promise<JobResult[]> {
  return Promise.all(
    jobs.map(async (job): Promise<JobResult> => {
      try {
        await attempt(deps, job.data);
        return { id: job.id, status: "completed" };
      } catch (error) {
        rootLogger().error({ err: error, deliveryId: job.data.deliveryId }, "webhook delivery attempt");
        return {
          id: job.id,
          status: "failed",
          output: { message: error instanceof Error ? error.message : String(error) },
        };
      }
    }),
  );
}

async function attempt(deps: DeliveryDeps & { boss: PgBoss }, job: DeliveryJob): Promise<void> {
  const { prisma } = deps;
  const delivery = await prisma.webhookDelivery.findUnique({
    where: { id: job.deliveryId },
    include: { webhook: true },
  });
  // Gone with its webhook, settled, or redelivered since this job was sent: another job carries it now.
  if (!delivery || delivery.status !== "pending" || delivery.attempts !== job.attempts) return;
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
  const nextAttemptAt =
    ok || attempts >= MAX_ATTEMPTS ? null : new Date(sentAt.getTime() + retryDelay(deps, attempts) * 1000);
  await prisma.$transaction(async (tx) => {
    // Only the attempt this job was for is logged: a job run twice (its worker's heartbeat lapsed) logs once.
    const logged = await tx.webhookDelivery.updateMany({
      where: { id: delivery.id, status: "pending", attempts: delivery.attempts },
      data: {
        attempts,
        lastAttemptAt: sentAt,
        lastStatusCode: statusCode,
        lastResponse: response,
        ...(ok
          ? { status: "delivered", deliveredAt: new Date() }
          : nextAttemptAt
            ? { nextAttemptAt }
            : { status: "failed" }),
      },
    });
    if (logged.count && nextAttemptAt)
      await sendDeliveryJobs(tx, deps.boss, [{ deliveryId: delivery.id, attempts, startAfter: nextAttemptAt }]);
  });
  if (!ok)
    rootLogger().warn(
      { deliveryId: delivery.id, webhookId: delivery.webhookId, statusCode, attempts },
      "webhook delivery failed",
    );
}

function retryDelay(deps: DeliveryDeps, attempts: number): number {
  return deps.retryDelaySeconds ? deps.retryDelaySeconds(attempts) : (RETRY_DELAYS_SECONDS[attempts - 1] ?? 0);
}

let sharedFetch: typeof fetch | null = null;
const defaultFetch = () => (sharedFetch ??= guardedFetch({ answers: "streamed" }));

/**
 * A worker's webhooks: attempts taken from the queue as they fall due (up to 20 at a time), and the fan-out of the
 * database's events every `intervalMs`. Returns its stop function (the queue's workers stop with the process's
 * job queue).
 */
export async function startWebhookDelivery(
  deps: DeliveryDeps,
  options: { intervalMs?: number } = {},
): Promise<() => Promise<void>> {
  const boss = await bossOf(deps);
  await boss.work<DeliveryJob, unknown, { batchSize: number; pollingIntervalSeconds: number; perJobResults: true }>(
    WEBHOOK_QUEUE,
    { batchSize: 20, pollingIntervalSeconds: 1, perJobResults: true },
    (jobs) => attemptAll({ ...deps, boss }, jobs),
  );
  const intervalMs = options.intervalMs ?? 2000;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const loop = async (): Promise<void> => {
    try {
      await fanOutEvents(deps.prisma, { boss });
    } catch (error) {
      rootLogger().error({ err: error }, "webhook fan-out");
    }
    if (!stopped) timer = setTimeout(() => void (current = loop()), intervalMs);
  };
  let current = loop();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await current;
    await boss.offWork(WEBHOOK_QUEUE);
  };
}
