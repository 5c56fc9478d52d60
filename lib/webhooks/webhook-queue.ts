/**
 * Webhook deliveries as jobs of the process's job queue (lib/jobs/job-boss.ts). A delivery row (webhook_delivery) is
 * its log: status, attempts, the last answer. Each attempt is one pg-boss job, sent in the transaction that writes
 * the row (the fan-out of an event, a ping, a redelivery, a failed attempt's next one), so a row waiting for an
 * attempt always has its job.
 */
import type { PgBoss } from "pg-boss";
import type { PrismaClient } from "../generated/prisma/client";
import { queueOn, transactionDb, type QueueDefinition } from "../jobs/job-boss";

export const WEBHOOK_QUEUE = "webhook-delivery";

/**
 * One job per attempt ("exclusive": one job per key waiting or running, the key being the delivery and its attempt
 * count). A worker killed mid-attempt stops its heartbeat, and pg-boss gives the job to another worker within
 * seconds; a job whose handler failed (the log could not be written) is retried with a growing delay.
 */
export const WEBHOOK_QUEUE_DEFINITION: QueueDefinition = {
  name: WEBHOOK_QUEUE,
  options: {
    policy: "exclusive",
    heartbeatSeconds: 10,
    expireInSeconds: 60,
    retryLimit: 50,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 600,
  },
};

/** An attempt of a delivery: the attempts the row had when the job was sent (a job that no longer matches is stale). */
export interface DeliveryJob {
  deliveryId: string;
  attempts: number;
}

type Transaction = Pick<PrismaClient, "$queryRawUnsafe">;

/** Sends the deliveries' next attempts in the transaction `tx` (which must also write their rows). */
export async function sendDeliveryJobs(
  tx: Transaction,
  boss: PgBoss,
  jobs: (DeliveryJob & { startAfter?: Date })[],
): Promise<void> {
  if (!jobs.length) return;
  await queueOn(boss, WEBHOOK_QUEUE_DEFINITION);
  await boss.insert(
    WEBHOOK_QUEUE,
    jobs.map(({ deliveryId, attempts, startAfter }) => ({
      data: { deliveryId, attempts } satisfies DeliveryJob,
      singletonKey: `${deliveryId}:${attempts}`,
      ...(startAfter ? { startAfter } : {}),
    })),
    { db: transactionDb(tx) },
  );
}

/**
 * Sends every pending delivery's next attempt again, at its time: as a worker starts, so that a delivery whose job
 * pg-boss gave up on is not left waiting. A job already waiting for it keeps it (same key), and nothing is sent twice.
 */
export async function resendPendingDeliveries(prisma: PrismaClient, boss: PgBoss): Promise<number> {
  const pending = await prisma.webhookDelivery.findMany({
    where: { status: "pending" },
    select: { id: true, attempts: true, nextAttemptAt: true },
  });
  for (let i = 0; i < pending.length; i += 500) {
    const chunk = pending.slice(i, i + 500);
    await sendDeliveryJobs(
      prisma,
      boss,
      chunk.map((d) => ({ deliveryId: d.id, attempts: d.attempts, startAfter: d.nextAttemptAt })),
    );
  }
  return pending.length;
}
