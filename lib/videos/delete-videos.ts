import { z } from "zod";
import type { Prisma } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { AppError, NotFoundError } from "../errors";
import { someNamed } from "../format/some-named";
import type { RemovedObjects } from "../storage/remove-objects";
import { removeStorageGarbage } from "../storage/storage-garbage";
import { deleteVideoRows, type VideoDeletionCounts } from "./delete-video-rows";
import type { VideoDeps } from "./register-video";
import {
  createVideoDeletion,
  VIDEO_DELETION_INLINE_MAX,
  type VideoDeletionQueue,
  type VideoDeletionState,
} from "./video-deletion-job";

export type { VideoDeletionCounts } from "./delete-video-rows";

/**
 * Deleting videos with everything that depends on them: their frames, the human and gold judgments
 * of them, their part of every run (steps, scores, calls, metrics, run items; a run left with no
 * video is deleted), their review-queue items (a queue left empty is deleted), their items
 * (captions, questions, candidates) and their edit history. The rows go in one transaction; the
 * storage objects (the video file and its frames) are removed after it commits
 * (lib/storage/remove-objects.ts). A video that a queued or running run is judging is refused (409):
 * cancel the run first, so no worker writes results for a video that is gone.
 */

export const deleteVideosSchema = z
  .object({
    videoIds: z.array(z.string().min(1).max(64)).min(1, "Choose at least one video.").max(5000),
    /** Only count what would be deleted. */
    dryRun: z.boolean().default(false),
  })
  .strict();

export const deleteOneVideoSchema = z.object({ dryRun: z.boolean().default(false) }).strict();

type Tx = Prisma.TransactionClient;

async function runsInProgress(tx: Tx, videoIds: string[]) {
  return tx.$queryRaw<{ id: string; pipeline: string }[]>`
    SELECT DISTINCT r.id, r.pipeline FROM judge_run r JOIN run_video rv ON rv."runId" = r.id
    WHERE rv."videoId" = ANY(${videoIds}) AND r.status IN ('queued', 'running')`;
}

async function countDependents(
  tx: Tx,
  projectId: string,
  videoIds: string[],
): Promise<{ counts: VideoDeletionCounts; runsToDelete: string[]; queuesToDelete: string[] }> {
  const [row] = await tx.$queryRaw<
    Record<Exclude<keyof VideoDeletionCounts, "runsDeleted" | "queuesDeleted" | "storageObjects">, bigint>[]
  >`
    SELECT
      (SELECT count(*) FROM video WHERE id = ANY(${videoIds})) AS videos,
      (SELECT count(*) FROM frame_set WHERE "videoId" = ANY(${videoIds})) AS "frameSets",
      (SELECT count(*) FROM frame f JOIN frame_set fs ON fs.id = f."frameSetId" WHERE fs."videoId" = ANY(${videoIds})) AS frames,
      (SELECT count(*) FROM human_judgment WHERE "projectId" = ${projectId} AND "videoId" = ANY(${videoIds})) AS "humanJudgments",
      (SELECT count(*) FROM gold_judgment WHERE "projectId" = ${projectId} AND "videoId" = ANY(${videoIds})) AS "goldJudgments",
      (SELECT count(DISTINCT "runId") FROM run_video WHERE "videoId" = ANY(${videoIds})) AS runs,
      (SELECT count(*) FROM run_video WHERE "videoId" = ANY(${videoIds})) AS "runVideos",
      (SELECT count(*) FROM run_item WHERE "videoId" = ANY(${videoIds})) AS "runItems",
      (SELECT count(*) FROM step_result sr JOIN judge_run r ON r.id = sr."runId" WHERE r."projectId" = ${projectId} AND sr."videoId" = ANY(${videoIds})) AS steps,
      (SELECT count(*) FROM llm_call c JOIN judge_run r ON r.id = c."runId" WHERE r."projectId" = ${projectId} AND c."videoId" = ANY(${videoIds})) AS "llmCalls",
      (SELECT count(*) FROM review_queue_item qi JOIN review_queue q ON q.id = qi."queueId" WHERE q."projectId" = ${projectId} AND qi."videoId" = ANY(${videoIds})) AS "queueItems",
      (SELECT count(*) FROM item WHERE "videoId" = ANY(${videoIds})) AS items,
      (SELECT count(*) FROM video_edit WHERE "videoId" = ANY(${videoIds})) AS edits`;
  const runsToDelete = await tx.$queryRaw<{ id: string }[]>`
    SELECT r.id FROM judge_run r WHERE r."projectId" = ${projectId}
      AND EXISTS (SELECT 1 FROM run_video rv WHERE rv."runId" = r.id AND rv."videoId" = ANY(${videoIds}))
      AND NOT EXISTS (SELECT 1 FROM run_video rv WHERE rv."runId" = r.id AND NOT (rv."videoId" = ANY(${videoIds})))`;
  const queuesToDelete = await tx.$queryRaw<{ id: string }[]>`
    SELECT q.id FROM review_queue q WHERE q."projectId" = ${projectId}
      AND EXISTS (SELECT 1 FROM review_queue_item qi WHERE qi."queueId" = q.id AND qi."videoId" = ANY(${videoIds}))
      AND NOT EXISTS (SELECT 1 FROM review_queue_item qi WHERE qi."queueId" = q.id AND NOT (qi."videoId" = ANY(${videoIds})))`;
  const n = Object.fromEntries(Object.entries(row!).map(([key, value]) => [key, Number(value)])) as Omit<
    VideoDeletionCounts,
    "runsDeleted" | "queuesDeleted" | "storageObjects"
  >;
  return {
    counts: {
      ...n,
      runsDeleted: runsToDelete.length,
      queuesDeleted: queuesToDelete.length,
      storageObjects: n.videos + n.frames,
    },
    runsToDelete: runsToDelete.map((r) => r.id),
    queuesToDelete: queuesToDelete.map((q) => q.id),
  };
}

export interface VideoDeletionResult {
  dryRun: boolean;
  counts: VideoDeletionCounts;
  /** After an inline deletion: what happened to the storage objects. */
  storage: RemovedObjects | null;
  /** A selection over VIDEO_DELETION_INLINE_MAX: the worker's deletion, queued (lib/videos/video-deletion-job.ts). */
  deletion: VideoDeletionState | null;
}

/**
 * Counts (dry run) or deletes the project's videos `videoIds` (owners). A video not in the project is
 * a 404 naming it, so a stale selection deletes nothing rather than part of it. Up to VIDEO_DELETION_INLINE_MAX
 * videos go here; more are checked and counted here, then queued for a worker (`deletions`: the queue, which the
 * route gives; without it every selection is deleted inline).
 */
export async function deleteVideos(
  deps: VideoDeps & { deletions?: VideoDeletionQueue },
  access: ProjectAccess<"videos.delete">,
  input: { videoIds: string[]; dryRun: boolean },
): Promise<VideoDeletionResult> {
  const { actor, projectId } = access;
  const videoIds = [...new Set(input.videoIds)];
  const outcome = await deps.prisma.$transaction(
    async (tx) => {
      // Locks the videos: an edit, a frame upload or another deletion of them waits for this one.
      const found = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM video WHERE "projectId" = ${projectId} AND id = ANY(${videoIds}) FOR UPDATE`;
      if (found.length !== videoIds.length) {
        const known = new Set(found.map((v) => v.id));
        const missing = videoIds.filter((id) => !known.has(id));
        throw new NotFoundError(`No such video in this project: ${someNamed(missing, 5)}. Nothing was deleted.`);
      }
      const busy = await runsInProgress(tx, videoIds);
      if (busy.length) {
        throw new AppError(
          409,
          "run_in_progress",
          `A run that is still judging ${videoIds.length === 1 ? "this video" : "these videos"} must finish or be cancelled first (${busy.map((r) => `${r.pipeline} run ${r.id}`).join(", ")}). Nothing was deleted.`,
          {
            runIds: busy.map((r) => r.id),
          },
        );
      }
      const { counts, runsToDelete, queuesToDelete } = await countDependents(tx, projectId, videoIds);
      if (input.dryRun) return { counts, keys: [] as string[], deletion: null };
      if (deps.deletions && videoIds.length > VIDEO_DELETION_INLINE_MAX)
        return {
          counts,
          keys: [] as string[],
          deletion: await createVideoDeletion(tx, actor, projectId, videoIds, counts),
        };
      const keys = await deleteVideoRows(tx, projectId, videoIds, { runsToDelete, queuesToDelete });
      return { counts, keys, deletion: null };
    },
    { timeout: 120_000 },
  );
  if (input.dryRun) return { dryRun: true, counts: outcome.counts, storage: null, deletion: null };
  if (outcome.deletion) {
    // A send that fails leaves the deletion queued: every worker sends the unfinished ones again as it starts.
    await deps.deletions!.enqueue(outcome.deletion.id);
    return { dryRun: false, counts: outcome.counts, storage: null, deletion: outcome.deletion };
  }
  return {
    dryRun: false,
    counts: outcome.counts,
    storage: await removeStorageGarbage(deps.prisma, deps.storage, outcome.keys),
    deletion: null,
  };
}

/** One video, by its id alone (the video page, `DELETE /api/v1/videos/:id`). */
export async function deleteVideo(
  deps: VideoDeps,
  access: ProjectAccess<"videos.delete">,
  videoId: string,
  input: { dryRun: boolean },
) {
  const video = await deps.prisma.video.findFirst({ where: { id: videoId, projectId: access.projectId } });
  if (!video) throw new NotFoundError("No such video.");
  return deleteVideos(deps, access, { videoIds: [videoId], dryRun: input.dryRun });
}
