import type { PgBoss } from "pg-boss";
import { prisma } from "../db/prisma";
import { appJudgeQueue } from "../judge/app-judge";
import { startBoss } from "../judge/queue";
import { rootLogger } from "../observability/logger";
import { installedPipelines } from "../task-modules/installed-task-modules";
import { executeAlignment, type AlignmentQueue } from "./alignment-runs";

export const ALIGNMENT_QUEUE = "align-judge";

const globalForAlignment = globalThis as unknown as { alignmentBoss?: Promise<PgBoss> };

async function withQueue(boss: PgBoss): Promise<PgBoss> {
  // An alignment waits on its judge runs for as long as they take: no heartbeat, a day to expire, no retry.
  await boss.createQueue(ALIGNMENT_QUEUE, { retryLimit: 0, expireInSeconds: 24 * 3600 });
  return boss;
}

/** The web process only sends alignment jobs. */
export function appAlignmentQueue(): AlignmentQueue {
  return {
    async enqueue(alignmentId) {
      globalForAlignment.alignmentBoss ??= startBoss(process.env.DATABASE_URL!, { supervise: false }).then(withQueue);
      await (await globalForAlignment.alignmentBoss).send(ALIGNMENT_QUEUE, { alignmentId });
    },
  };
}

/** A worker's alignment jobs: one at a time; the judge runs they start go to the judge queue like any run's. */
export async function startAlignmentWorker(boss: PgBoss) {
  await withQueue(boss);
  return boss.work<{ alignmentId: string }>(
    ALIGNMENT_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 1 },
    async ([job]) => {
      if (!job) return;
      rootLogger().info({ alignmentId: job.data.alignmentId }, "aligning a judge");
      await executeAlignment({ prisma, queue: appJudgeQueue(), pipelines: installedPipelines() }, job.data.alignmentId);
    },
  );
}
