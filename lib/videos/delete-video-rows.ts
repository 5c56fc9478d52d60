import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ObjectStorage } from "../storage/object-storage";
import { recordStorageGarbage, removeStorageGarbage } from "../storage/storage-garbage";

/** What a deletion removes, counted on the server (the confirmation shows these). */
export interface VideoDeletionCounts {
  videos: number;
  frameSets: number;
  frames: number;
  humanJudgments: number;
  goldJudgments: number;
  /** Runs that judged at least one of the videos, and of those, the runs left with no video (deleted). */
  runs: number;
  runsDeleted: number;
  runVideos: number;
  runItems: number;
  steps: number;
  llmCalls: number;
  queueItems: number;
  queuesDeleted: number;
  items: number;
  edits: number;
  storageObjects: number;
}

type Tx = Prisma.TransactionClient;

/**
 * Deletes the videos' rows and what depends on them (lib/videos/delete-videos.ts lists them), in the caller's transaction, and records
 * their storage objects (the files and frames) as garbage in it (lib/storage/storage-garbage.ts); returns those keys,
 * to be removed once the transaction commits. `runsToDelete` and `queuesToDelete` are the runs and queues the
 * deletion leaves empty.
 */
export async function deleteVideoRows(
  tx: Tx,
  projectId: string,
  videoIds: string[],
  empty: { runsToDelete: string[]; queuesToDelete: string[] },
): Promise<string[]> {
  const { runsToDelete, queuesToDelete } = empty;
  const videoKeys = await tx.$queryRaw<
    { storageKey: string }[]
  >`SELECT "storageKey" FROM video WHERE "projectId" = ${projectId} AND id = ANY(${videoIds})`;
  const frameKeys = await tx.$queryRaw<{ storageKey: string }[]>`
    SELECT f."storageKey" FROM frame f JOIN frame_set fs ON fs.id = f."frameSetId" WHERE fs."videoId" = ANY(${videoIds})`;
  // Rows that name the videos without a foreign key go first; the rest cascade from video.
  await tx.humanJudgment.deleteMany({ where: { projectId, videoId: { in: videoIds } } });
  await tx.goldJudgment.deleteMany({ where: { projectId, videoId: { in: videoIds } } });
  await tx.$executeRaw`
    DELETE FROM review_queue_item qi USING review_queue q
    WHERE q.id = qi."queueId" AND q."projectId" = ${projectId} AND qi."videoId" = ANY(${videoIds})`;
  await tx.reviewQueue.deleteMany({ where: { id: { in: queuesToDelete } } });
  await tx.$executeRaw`
    UPDATE review_queue q SET "itemCount" = (SELECT count(*) FROM review_queue_item qi WHERE qi."queueId" = q.id)
    WHERE q."projectId" = ${projectId} AND q."itemCount" <> (SELECT count(*) FROM review_queue_item qi WHERE qi."queueId" = q.id)`;
  await tx.$executeRaw`
    DELETE FROM step_result sr USING judge_run r
    WHERE r.id = sr."runId" AND r."projectId" = ${projectId} AND sr."videoId" = ANY(${videoIds})`;
  await tx.judgeRun.deleteMany({ where: { id: { in: runsToDelete } } });
  await tx.uploadSession.updateMany({ where: { projectId, videoId: { in: videoIds } }, data: { videoId: null } });
  await tx.video.deleteMany({ where: { projectId, id: { in: videoIds } } });
  await tx.$executeRaw`
    UPDATE item_set s SET "itemCount" = (SELECT count(*) FROM item i WHERE i."setId" = s.id)
    WHERE s."projectId" = ${projectId} AND s."itemCount" <> (SELECT count(*) FROM item i WHERE i."setId" = s.id)`;
  const keys = [...videoKeys.map((v) => v.storageKey), ...frameKeys.map((f) => f.storageKey)];
  await recordStorageGarbage(tx, keys);
  return keys;
}

/**
 * Deletes videos a batch at a time, for a worker's deletion job (a project's, a large selection's): each batch takes
 * the videos still left (`only`: of these ids; else all the project's) that no one else holds (`FOR UPDATE SKIP
 * LOCKED`: another attempt, an edit), deletes their rows in one transaction with `counted` (the job's progress, in the
 * same transaction), then removes their stored files (`removed`). `stop` is asked before each batch. Returns whether it
 * stopped or ran out of videos; safe to run again after a kill, the rows say what is left.
 */
export async function deleteVideosInBatches(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  job: {
    projectId: string;
    only?: string[];
    batchSize: number;
    stop: () => Promise<boolean>;
    counted: (tx: Tx, videos: number) => Promise<unknown>;
    removed: (files: number) => Promise<void>;
  },
): Promise<"stopped" | "done"> {
  const { prisma } = deps;
  const { projectId } = job;
  for (;;) {
    if (await job.stop()) return "stopped";
    const batch = await prisma.video.findMany({
      where: { projectId, ...(job.only ? { id: { in: job.only } } : {}) },
      orderBy: { id: "asc" },
      take: job.batchSize,
      select: { id: true },
    });
    if (batch.length === 0) return "done";
    const keys = await prisma.$transaction(
      async (tx) => {
        const held = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM video WHERE "projectId" = ${projectId} AND id = ANY(${batch.map((v) => v.id)}) FOR UPDATE SKIP LOCKED`;
        if (held.length === 0) return [];
        const keys = await deleteVideoRows(
          tx,
          projectId,
          held.map((v) => v.id),
          { runsToDelete: [], queuesToDelete: [] },
        );
        await job.counted(tx, held.length);
        return keys;
      },
      { timeout: 120_000 },
    );
    await job.removed((await removeStorageGarbage(prisma, deps.storage, keys)).removed);
  }
}
