/**
 * Frame times computed once per video, by a job: registering a video's frames (lib/videos/frame-sets.ts) queues it, a
 * worker reads the video's file and stores its times (video_frame_times), and requests only read what is stored.
 */
import type { PgBoss } from "pg-boss";
import type { PrismaClient } from "../generated/prisma/client";
import { isAppError } from "../errors";
import { jobQueues, queueOn, type QueueDefinition } from "../jobs/job-boss";
import type { ObjectStorage } from "../storage/object-storage";
import { computeVideoFrameTimes } from "./video-frame-times";

export const FRAME_TIMES_QUEUE = "video-frame-times";

/**
 * One job per video waiting or running ("exclusive", keyed by the video): registering a second frame set while the
 * first's job waits queues nothing more. A storage that failed is tried again with a growing delay.
 */
export const FRAME_TIMES_QUEUE_DEFINITION: QueueDefinition = {
  name: FRAME_TIMES_QUEUE,
  options: {
    policy: "exclusive",
    heartbeatSeconds: 30,
    expireInSeconds: 900,
    retryLimit: 10,
    retryDelay: 10,
    retryBackoff: true,
    retryDelayMax: 600,
  },
};

export interface FrameTimesJob {
  videoId: string;
}

/** Queues the videos' frame-times jobs on the process's job queue (a video with one waiting gets no second). */
export async function queueFrameTimes(videoIds: readonly string[], boss?: PgBoss): Promise<void> {
  if (videoIds.length === 0) return;
  const queue = boss
    ? await queueOn(boss, FRAME_TIMES_QUEUE_DEFINITION)
    : await jobQueues(FRAME_TIMES_QUEUE_DEFINITION);
  await queue.insert(
    FRAME_TIMES_QUEUE,
    videoIds.map((videoId) => ({ data: { videoId } satisfies FrameTimesJob, singletonKey: videoId })),
  );
}

/**
 * The job: the video's frame times read from its file and stored (nothing when they are stored already, or the video
 * is gone). A file whose frames cannot be read ends the job with its reason (reading it again would not help: the
 * video's spans then say its times are not computed); any other failure fails the job for its retry.
 */
export async function runFrameTimesJob(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  job: FrameTimesJob,
): Promise<"stored" | "gone" | { unreadable: string }> {
  const video = await deps.prisma.video.findUnique({
    where: { id: job.videoId },
    select: { id: true, storageKey: true },
  });
  if (!video) return "gone";
  try {
    await computeVideoFrameTimes(deps, video);
    return "stored";
  } catch (error) {
    if (isAppError(error) && error.status === 422) return { unreadable: error.message };
    throw error;
  }
}

/**
 * A worker's part: takes the frame-times jobs, and queues one for every video with frames and no stored times (a
 * registration whose queueing failed, videos registered before the job existed).
 */
export async function startFrameTimesWorker(
  boss: PgBoss,
  deps: { prisma: PrismaClient; storage: () => ObjectStorage; log(line: string): void },
): Promise<void> {
  await queueOn(boss, FRAME_TIMES_QUEUE_DEFINITION);
  await boss.work<FrameTimesJob>(FRAME_TIMES_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    if (!job) return;
    const outcome = await runFrameTimesJob({ prisma: deps.prisma, storage: deps.storage() }, job.data);
    if (typeof outcome === "object") deps.log(`frame times of video ${job.data.videoId}: none, ${outcome.unreadable}`);
  });
  await queueFrameTimes(await videosWithoutFrameTimes(deps.prisma), boss);
}

/** Videos with a frame set and no stored frame times. */
export async function videosWithoutFrameTimes(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT v.id FROM video v
    WHERE EXISTS (SELECT 1 FROM frame_set fs WHERE fs."videoId" = v.id)
      AND NOT EXISTS (SELECT 1 FROM video_frame_times vft WHERE vft."videoId" = v.id)`;
  return rows.map((row) => row.id);
}
