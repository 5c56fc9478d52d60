/**
 * Issue 39 §3: a deletion of more videos than a request deletes inline is a worker's job, in batches, with progress
 * and cancellation. On the real database and the file storage, the worker's function run inline.
 */
import { describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { ConflictError, NotFoundError } from "../errors";
import { getStorage } from "../storage/storage";
import { seedFinishedRun } from "../../testkit/tasks/hallucination/agreement-fixtures";
import { makeUser } from "../../testkit/testing/fixtures";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { deleteVideos } from "./delete-videos";
import {
  cancelVideoDeletion,
  executeVideoDeletion,
  getVideoDeletion,
  VIDEO_DELETION_INLINE_MAX,
  type VideoDeletionQueue,
} from "./video-deletion-job";
import { projectAccess } from "../authz/permissions";

function recordingQueue(): VideoDeletionQueue & { sent: string[] } {
  const sent: string[] = [];
  return { sent, enqueue: async (id) => void sent.push(id) };
}

async function storedKeys(videoIds: string[]): Promise<string[]> {
  const videos = await prisma.video.findMany({
    where: { id: { in: videoIds } },
    select: { storageKey: true, frameSets: { select: { frames: { select: { storageKey: true } } } } },
  });
  return videos.flatMap((v) => [v.storageKey, ...v.frameSets.flatMap((fs) => fs.frames.map((f) => f.storageKey))]);
}

async function present(keys: readonly string[]): Promise<number> {
  let n = 0;
  for (const key of keys) if (await getStorage().stat(key)) n++;
  return n;
}

describe("deleting many videos as a worker's job", () => {
  it(
    "queues a selection over the inline limit, deletes it in batches, then the runs and queues it left empty",
    { timeout: 120_000 },
    async () => {
      const owner = await makeUser();
      const count = VIDEO_DELETION_INLINE_MAX + 50;
      const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
        videoCount: count + 1,
        keyFrames: 1,
        name: "Many videos",
      });
      const kept = videoIds[count]!;
      const chosen = videoIds.slice(0, count);
      for (const video of await prisma.video.findMany({ where: { projectId }, select: { storageKey: true } }))
        await getStorage().put(video.storageKey, Buffer.from("video bytes"));
      const onlyChosen = await seedFinishedRun(prisma, owner, projectId, chosen.slice(0, 2), {
        scores: () => [],
        outcome: () => ({ verdict: true, overall: 40 }),
      });
      const withKept = await seedFinishedRun(prisma, owner, projectId, [chosen[2]!, kept], {
        scores: () => [],
        outcome: () => ({ verdict: true, overall: 40 }),
      });
      const queue = await prisma.reviewQueue.create({
        data: {
          projectId,
          name: "chosen only",
          runId: withKept.runId,
          scope: "verdict",
          itemCount: 1,
          createdById: owner.userId,
        },
      });
      await prisma.reviewQueueItem.create({ data: { queueId: queue.id, videoId: chosen[0]!, position: 0 } });
      const keys = await storedKeys(chosen);
      expect(await present(keys)).toBe(keys.length);

      const deletions = recordingQueue();
      const answer = await deleteVideos(
        { prisma, storage: getStorage(), deletions },
        await projectAccess(prisma, owner, projectId, "videos.delete"),
        {
          videoIds: chosen,
          dryRun: false,
        },
      );
      // Checked and counted now, deleted by a worker: nothing is gone yet.
      expect(answer).toMatchObject({
        dryRun: false,
        storage: null,
        counts: { videos: count, runs: 2 },
        deletion: { status: "queued", videosTotal: count, videosDeleted: 0 },
      });
      expect(deletions.sent).toEqual([answer.deletion!.id]);
      expect(await prisma.video.count({ where: { projectId } })).toBe(count + 1);

      const seen: number[] = [];
      const done = await executeVideoDeletion(
        { prisma, storage: getStorage(), batchSize: 100, afterBatch: (s) => void seen.push(s.videosDeleted) },
        answer.deletion!.id,
      );
      expect(seen).toEqual([100, 200, count]);
      expect(done).toMatchObject({ status: "done", videosDeleted: count, storageRemoved: keys.length });
      expect((await prisma.video.findMany({ where: { projectId }, select: { id: true } })).map((v) => v.id)).toEqual([
        kept,
      ]);
      expect(await present(keys)).toBe(0);
      // The run and the queue left with nothing go; the run that also judged the kept video stays, with it alone.
      expect(await prisma.judgeRun.count({ where: { id: onlyChosen.runId } })).toBe(0);
      expect(await prisma.reviewQueue.count({ where: { id: queue.id } })).toBe(0);
      expect(await prisma.runVideo.findMany({ where: { runId: withKept.runId }, select: { videoId: true } })).toEqual([
        { videoId: kept },
      ]);
      await expect(
        cancelVideoDeletion(
          prisma,
          await projectAccess(prisma, owner, projectId, "videos.delete"),
          answer.deletion!.id,
        ),
      ).rejects.toThrow(ConflictError);
      // Owners of the project only.
      await expect(projectAccess(prisma, await makeUser(), projectId, "videos.delete")).rejects.toThrow(NotFoundError);
      // Through an access to another project, the deletion is not found.
      const { projectId: elsewhere } = await projectWithFramedVideos(prisma, owner, { videoCount: 0, keyFrames: 1 });
      const elsewhereAccess = await projectAccess(prisma, owner, elsewhere, "videos.delete");
      await expect(getVideoDeletion(prisma, elsewhereAccess, answer.deletion!.id)).rejects.toThrow(NotFoundError);
    },
  );

  it(
    "stops after the batch in hand when cancelled, keeping the videos not deleted yet whole",
    { timeout: 120_000 },
    async () => {
      const owner = await makeUser();
      const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
        videoCount: VIDEO_DELETION_INLINE_MAX + 1,
        keyFrames: 1,
        name: "Cancel me",
      });
      const answer = await deleteVideos(
        { prisma, storage: getStorage(), deletions: recordingQueue() },
        await projectAccess(prisma, owner, projectId, "videos.delete"),
        { videoIds, dryRun: false },
      );
      const ended = await executeVideoDeletion(
        {
          prisma,
          storage: getStorage(),
          batchSize: 50,
          afterBatch: async (state) => {
            if (state.videosDeleted === 50)
              expect(
                await cancelVideoDeletion(
                  prisma,
                  await projectAccess(prisma, owner, projectId, "videos.delete"),
                  state.id,
                ),
              ).toMatchObject({
                status: "running",
                cancelRequested: true,
              });
          },
        },
        answer.deletion!.id,
      );
      expect(ended).toMatchObject({ status: "cancelled", videosDeleted: 50 });
      const left = await prisma.video.findMany({ where: { projectId }, select: { id: true } });
      expect(left).toHaveLength(VIDEO_DELETION_INLINE_MAX + 1 - 50);
      const leftKeys = await storedKeys(left.map((v) => v.id));
      expect(await present(leftKeys.filter((k) => k.includes("/frames/")))).toBe(
        leftKeys.filter((k) => k.includes("/frames/")).length,
      );
      // A selection within the limit is still deleted by the request itself.
      const inline = await deleteVideos(
        { prisma, storage: getStorage(), deletions: recordingQueue() },
        await projectAccess(prisma, owner, projectId, "videos.delete"),
        { videoIds: [left[0]!.id], dryRun: false },
      );
      expect(inline).toMatchObject({ deletion: null, counts: { videos: 1 } });
    },
  );
});
