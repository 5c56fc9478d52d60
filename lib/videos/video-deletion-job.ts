import type { Actor } from "../auth/actor";
import type { ProjectAccess } from "../authz/permissions";
import { ConflictError, NotFoundError } from "../errors";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { ObjectStorage } from "../storage/object-storage";
import { deleteVideosInBatches, type VideoDeletionCounts } from "./delete-video-rows";
import { deletionProgressOf, type DeletionProgress, type DeletionStatus } from "../jobs/deletion-progress";

/**
 * A deletion of more videos than a request deletes inline (VIDEO_DELETION_INLINE_MAX), as a worker's job: the request
 * checks and counts as for any deletion, then queues the chosen ids with the runs and queues that hold them; a worker
 * deletes the videos a batch at a time (each batch one transaction, its stored files recorded as garbage and removed
 * after it: lib/storage/storage-garbage.ts), then the runs and queues the deletion left empty. Every batch reads which
 * of the ids are left, so a retry after a kill resumes where the rows are. Cancelling stops between batches: the
 * videos not deleted yet stay, whole.
 */

/** Videos a request deletes itself; a larger selection is a worker's job. */
export const VIDEO_DELETION_INLINE_MAX = 200;
const BATCH = 100;

export type VideoDeletionStatus = DeletionStatus;

export type VideoDeletionState = DeletionProgress<VideoDeletionCounts>;

/** Sends a video deletion to the workers (lib/deletions/deletion-queues.ts; inline in tests). */
export interface VideoDeletionQueue {
  enqueue(deletionId: string): Promise<void>;
}

type Row = Awaited<ReturnType<PrismaClient["videoDeletion"]["findUniqueOrThrow"]>>;
const UNFINISHED: VideoDeletionStatus[] = ["queued", "running"];

const stateOf = (row: Row): VideoDeletionState => deletionProgressOf<VideoDeletionCounts>(row);

/** Queues the deletion, in the transaction that checked and counted the videos (deleteVideos). */
export async function createVideoDeletion(
  tx: Prisma.TransactionClient,
  actor: Actor,
  projectId: string,
  videoIds: string[],
  counts: VideoDeletionCounts,
): Promise<VideoDeletionState> {
  const runs = await tx.$queryRaw<
    { id: string }[]
  >`SELECT DISTINCT "runId" AS id FROM run_video WHERE "videoId" = ANY(${videoIds})`;
  const queues = await tx.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT qi."queueId" AS id FROM review_queue_item qi JOIN review_queue q ON q.id = qi."queueId"
    WHERE q."projectId" = ${projectId} AND qi."videoId" = ANY(${videoIds})`;
  const row = await tx.videoDeletion.create({
    data: {
      projectId,
      requestedById: actor.userId,
      videoIds,
      runIds: runs.map((r) => r.id),
      queueIds: queues.map((q) => q.id),
      counts: counts as unknown as Prisma.InputJsonValue,
      videosTotal: videoIds.length,
    },
  });
  return stateOf(row);
}

/**
 * The ids of the project's videos that a queued or running deletion is removing. A run started meanwhile leaves them
 * out (lib/judge/runs/runs.ts): it would otherwise queue steps for videos about to go, and count them as judged.
 */
export async function videosBeingDeleted(prisma: PrismaClient, projectId: string): Promise<Set<string>> {
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT unnest("videoIds") AS id FROM video_deletion WHERE "projectId" = ${projectId} AND status = ANY(${UNFINISHED})`;
  return new Set(rows.map((row) => row.id));
}

async function requireVideoDeletion(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.delete">,
  deletionId: string,
): Promise<Row> {
  const row = await prisma.videoDeletion.findFirst({ where: { id: deletionId, projectId: access.projectId } });
  if (!row) throw new NotFoundError("No such video deletion.");
  return row;
}

/** One deletion with its progress (the project's owners). */
export async function getVideoDeletion(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.delete">,
  deletionId: string,
): Promise<VideoDeletionState> {
  return stateOf(await requireVideoDeletion(prisma, access, deletionId));
}

/** Cancels a deletion: one no worker has taken stops at once, a running one after its current batch; an ended one is a 409. */
export async function cancelVideoDeletion(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.delete">,
  deletionId: string,
): Promise<VideoDeletionState> {
  await requireVideoDeletion(prisma, access, deletionId);
  const row = await prisma.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<
      { status: string }[]
    >`SELECT status FROM video_deletion WHERE id = ${deletionId} FOR UPDATE`;
    if (!locked || !UNFINISHED.includes(locked.status as VideoDeletionStatus))
      throw new ConflictError(`The deletion has ended (${locked?.status ?? "gone"}): there is nothing to cancel.`);
    return locked.status === "queued"
      ? tx.videoDeletion.update({ where: { id: deletionId }, data: { status: "cancelled", finishedAt: new Date() } })
      : tx.videoDeletion.update({ where: { id: deletionId }, data: { cancelRequested: true } });
  });
  return stateOf(row);
}

/** Between batches: whether to stop (a cancel asked for, or the deletion no longer running), ending it as cancelled. */
async function stopHere(prisma: PrismaClient, deletionId: string): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM video_deletion WHERE id = ${deletionId} FOR UPDATE`;
    const row = await tx.videoDeletion.findUniqueOrThrow({
      where: { id: deletionId },
      select: { status: true, cancelRequested: true },
    });
    if (row.status !== "running") return true;
    if (!row.cancelRequested) return false;
    await tx.videoDeletion.update({ where: { id: deletionId }, data: { status: "cancelled", finishedAt: new Date() } });
    return true;
  });
}

/** The worker's part: deletes the videos still left a batch at a time, then the runs and queues left empty. */
export async function executeVideoDeletion(
  deps: {
    prisma: PrismaClient;
    storage: ObjectStorage;
    batchSize?: number;
    afterBatch?: (state: VideoDeletionState) => Promise<void> | void;
  },
  deletionId: string,
): Promise<VideoDeletionState | null> {
  const { prisma } = deps;
  const claimed = await prisma.videoDeletion.updateMany({
    where: { id: deletionId, status: { in: UNFINISHED } },
    data: { status: "running" },
  });
  const row = await prisma.videoDeletion.findUnique({ where: { id: deletionId } });
  if (!row || claimed.count === 0) return row ? stateOf(row) : null;
  const { projectId, videoIds } = row;
  const current = async () => stateOf(await prisma.videoDeletion.findUniqueOrThrow({ where: { id: deletionId } }));
  try {
    const videos = await deleteVideosInBatches(deps, {
      projectId,
      only: videoIds,
      batchSize: deps.batchSize ?? BATCH,
      stop: () => stopHere(prisma, deletionId),
      counted: (tx, n) =>
        tx.videoDeletion.update({ where: { id: deletionId }, data: { videosDeleted: { increment: n } } }),
      removed: async (files) => {
        const state = stateOf(
          await prisma.videoDeletion.update({
            where: { id: deletionId },
            data: { storageRemoved: { increment: files } },
          }),
        );
        await deps.afterBatch?.(state);
      },
    });
    if (videos === "stopped") return current();
    // The runs and queues that held the videos and hold none now go, as an inline deletion's do.
    await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`
        DELETE FROM judge_run r WHERE r.id = ANY(${row.runIds}) AND r."projectId" = ${projectId}
          AND NOT EXISTS (SELECT 1 FROM run_video rv WHERE rv."runId" = r.id)`;
      await tx.$executeRaw`
        DELETE FROM review_queue q WHERE q.id = ANY(${row.queueIds}) AND q."projectId" = ${projectId}
          AND NOT EXISTS (SELECT 1 FROM review_queue_item qi WHERE qi."queueId" = q.id)`;
      await tx.videoDeletion.update({
        where: { id: deletionId },
        data: { status: "done", error: null, finishedAt: new Date() },
      });
    });
    return current();
  } catch (error) {
    await prisma.videoDeletion
      .update({ where: { id: deletionId }, data: { error: error instanceof Error ? error.message : String(error) } })
      .catch(() => undefined);
    throw error;
  }
}

/** The deletions a worker sends again as it starts (a send the web process lost). */
export async function unfinishedVideoDeletions(prisma: PrismaClient): Promise<string[]> {
  return (await prisma.videoDeletion.findMany({ where: { status: { in: UNFINISHED } }, select: { id: true } })).map(
    (d) => d.id,
  );
}
