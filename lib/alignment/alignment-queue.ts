import type { PgBoss } from "pg-boss";
import { prisma } from "../db/prisma";
import { appJudgeQueue } from "../judge/app-judge";
import { jobQueues, queueOn, type QueueDefinition } from "../jobs/job-boss";
import { rootLogger } from "../observability/logger";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { executeAlignment, type AlignmentQueue } from "./alignment-runs";

export const ALIGNMENT_QUEUE = "align-judge";

// An alignment waits on its judge runs for as long as they take: no heartbeat, a day to expire, no retry.
const ALIGNMENT_QUEUE_DEFINITION: QueueDefinition = {
  name: ALIGNMENT_QUEUE,
  options: { retryLimit: 0, expireInSeconds: 24 * 3600 },
};

/** Alignment jobs sent through the process's job queue (lib/jobs/job-boss.ts): the web process only sends them. */
export function appAlignmentQueue(): AlignmentQueue {
  return {
    async enqueue(alignmentId) {
      await (await jobQueues(ALIGNMENT_QUEUE_DEFINITION)).send(ALIGNMENT_QUEUE, { alignmentId });
    },
  };
}

/** A worker's alignment jobs: one at a time; the judge runs they start go to the judge queue like any run's. */
export async function startAlignmentWorker(boss: PgBoss) {
  await queueOn(boss, ALIGNMENT_QUEUE_DEFINITION);
  return boss.work<{ alignmentId: string }>(
    ALIGNMENT_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 1 },
    async ([job]) => {
      if (!job) return;
      rootLogger().info({ alignmentId: job.data.alignmentId }, "aligning a judge");
      await executeAlignment(
        { prisma, queue: appJudgeQueue(), pipelines: builtInCatalogue().pipelines },
        job.data.alignmentId,
      );
    },
  );
}
