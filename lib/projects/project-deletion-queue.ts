import type { PgBoss } from "pg-boss";
import { prisma } from "../db/prisma";
import { startBoss } from "../judge/queue";
import { rootLogger } from "../observability/logger";
import { getStorage } from "../storage/storage";
import { sweepStorageGarbage } from "../storage/storage-garbage";
import { executeProjectDeletion, unfinishedProjectDeletions, type ProjectDeletionQueue } from "./project-deletion";

export const PROJECT_DELETION_QUEUE = "delete-project";

const globalForDeletion = globalThis as unknown as { projectDeletionBoss?: Promise<PgBoss> };

async function withQueue(boss: PgBoss): Promise<PgBoss> {
  // A worker killed mid-deletion stops its heartbeat: pg-boss fails the job and retries it, and the retry resumes
  // from the rows (executeProjectDeletion). Retried for a day, with a growing delay, before it is given up.
  await boss.createQueue(PROJECT_DELETION_QUEUE, { heartbeatSeconds: 10, retryLimit: 200, retryDelay: 2, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 24 * 3600 });
  return boss;
}

async function send(boss: PgBoss, deletionId: string): Promise<void> {
  await boss.send(PROJECT_DELETION_QUEUE, { deletionId }, { singletonKey: deletionId });
}

/** Deletions sent through a started boss (its queue made on first use). */
export function pgBossProjectDeletionQueue(boss: PgBoss): ProjectDeletionQueue {
  let ready: Promise<PgBoss> | null = null;
  return {
    async enqueue(deletionId) {
      ready ??= withQueue(boss);
      await send(await ready, deletionId);
    },
  };
}

/** The web process only sends deletions. */
export function appProjectDeletionQueue(): ProjectDeletionQueue {
  return {
    async enqueue(deletionId) {
      globalForDeletion.projectDeletionBoss ??= startBoss(process.env.DATABASE_URL!, { supervise: false }).then(withQueue);
      await send(await globalForDeletion.projectDeletionBoss, deletionId);
    },
  };
}

/** Minutes between a worker's sweeps of storage garbage left by a killed process (lib/storage/storage-garbage.ts). */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * A worker's project deletions, one at a time, and its sweeps of storage garbage. As it starts it sends every
 * unfinished deletion again (a send the web process lost; a second job of one deletion finds nothing left to do).
 */
export async function startProjectDeletionWorker(boss: PgBoss): Promise<() => void> {
  await withQueue(boss);
  const logger = rootLogger().child({ role: "project-deletion" });
  await boss.work<{ deletionId: string }>(PROJECT_DELETION_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    if (!job) return;
    logger.info({ deletionId: job.data.deletionId }, "deleting a project");
    const state = await executeProjectDeletion({ prisma, storage: getStorage() }, job.data.deletionId);
    logger.info({ deletionId: job.data.deletionId, status: state?.status, videosDeleted: state?.videosDeleted, storageRemoved: state?.storageRemoved }, "project deletion ended");
  });
  for (const deletionId of await unfinishedProjectDeletions(prisma)) await send(boss, deletionId);
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
