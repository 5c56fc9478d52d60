import type { PgBoss } from "pg-boss";
import { prisma } from "../db/prisma";
import { jobQueues, queueOn, type QueueDefinition } from "../jobs/job-boss";
import { rootLogger } from "../observability/logger";
import { executeProjectDeletion, unfinishedProjectDeletions } from "../projects/project-deletion";
import { getStorage } from "../storage/storage";
import { sweepStorageGarbage } from "../storage/storage-garbage";
import { executeVideoDeletion, unfinishedVideoDeletions } from "../videos/video-deletion-job";

/**
 * The deletions workers run (a project's: lib/projects/project-deletion.ts; a large selection of videos:
 * lib/videos/video-deletion-job.ts), one pg-boss queue each, and the sweeps of storage garbage.
 */
const KINDS = {
  project: { queue: "delete-project", execute: executeProjectDeletion, unfinished: unfinishedProjectDeletions },
  videos: { queue: "delete-videos", execute: executeVideoDeletion, unfinished: unfinishedVideoDeletions },
} as const;
export type DeletionKind = keyof typeof KINDS;

/** Sends a deletion of one kind to the workers. */
export interface DeletionQueue {
  enqueue(deletionId: string): Promise<void>;
}

// A worker killed mid-deletion stops its heartbeat: pg-boss fails the job and retries it, and the retry resumes
// from the rows. Retried for about a day, with a growing delay.
const DELETION_QUEUES: QueueDefinition[] = Object.values(KINDS).map(({ queue }) => ({
  name: queue,
  options: {
    heartbeatSeconds: 10,
    retryLimit: 200,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 600,
    expireInSeconds: 24 * 3600,
  },
}));

async function send(boss: PgBoss, kind: DeletionKind, deletionId: string): Promise<void> {
  await boss.send(KINDS[kind].queue, { deletionId }, { singletonKey: deletionId });
}

/**
 * Deletions sent through the process's job queue (lib/jobs/job-boss.ts): the web process only sends them. `boss`, a
 * started one, sends them instead (a test's on a database of its own).
 */
export function appDeletionQueue(kind: DeletionKind, boss?: PgBoss): DeletionQueue {
  return {
    async enqueue(deletionId) {
      const queues = boss ? await queueOn(boss, ...DELETION_QUEUES) : await jobQueues(...DELETION_QUEUES);
      await send(queues, kind, deletionId);
    },
  };
}

/** Minutes between a worker's sweeps of storage garbage left by a killed process (lib/storage/storage-garbage.ts). */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * A worker's deletions, one at a time per kind, and its sweeps of storage garbage. As it starts it sends every
 * unfinished deletion again (a send the web process lost; a second job of one deletion finds nothing left to do).
 */
export async function startDeletionWorker(boss: PgBoss): Promise<() => void> {
  await queueOn(boss, ...DELETION_QUEUES);
  const logger = rootLogger().child({ role: "deletions" });
  for (const [kind, { queue, execute, unfinished }] of Object.entries(KINDS) as [
    DeletionKind,
    (typeof KINDS)[DeletionKind],
  ][]) {
    await boss.work<{ deletionId: string }>(queue, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
      if (!job) return;
      logger.info({ kind, deletionId: job.data.deletionId }, "deleting");
      const state = await execute({ prisma, storage: getStorage() }, job.data.deletionId);
      logger.info(
        {
          kind,
          deletionId: job.data.deletionId,
          status: state?.status,
          videosDeleted: state?.videosDeleted,
          storageRemoved: state?.storageRemoved,
        },
        "deletion ended",
      );
    });
    for (const deletionId of await unfinished(prisma)) await send(boss, kind, deletionId);
  }
  const sweep = () =>
    void sweepStorageGarbage(prisma, getStorage()).then(
      (swept) => swept.removed + swept.failed > 0 && logger.info(swept, "swept storage garbage"),
      (error: unknown) => logger.warn({ err: error }, "could not sweep storage garbage"),
    );
  sweep();
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
