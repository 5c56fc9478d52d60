import { jobBoss, queueOn } from "../../lib/jobs/job-boss";
import { attemptAll, type DeliveryDeps } from "../../lib/webhooks/deliver";
import { WEBHOOK_QUEUE, WEBHOOK_QUEUE_DEFINITION, type DeliveryJob } from "../../lib/webhooks/webhook-queue";

/**
 * Takes up to `limit` due attempts from the queue now and makes them, as a worker would; returns how many it took.
 * A worker takes them as they fall due (`startWebhookDelivery`); a test takes them when it chooses.
 */
export async function deliverDue(deps: DeliveryDeps, limit = 20): Promise<number> {
  const boss = await queueOn(deps.boss ?? (await jobBoss()), WEBHOOK_QUEUE_DEFINITION);
  const jobs = await boss.fetch<DeliveryJob>(WEBHOOK_QUEUE, { batchSize: limit });
  for (const result of await attemptAll({ ...deps, boss }, jobs)) {
    if (result.status === "completed") await boss.complete(WEBHOOK_QUEUE, result.id);
    else await boss.fail(WEBHOOK_QUEUE, result.id, result.output);
  }
  return jobs.length;
}
