import { ALL_FORMATS, EncodedPacketSink, FilePathSource, Input } from "mediabunny";
import type { PrismaClient } from "../generated/prisma/client";
import { type ObjectStorage, StorageNotFoundError } from "../storage/object-storage";
import { AppError, UnusableVideoError } from "../errors";
import { type FrameTimes, frameTimesFromTimestamps } from "../frames/frame-times";

/** Every video packet's presentation timestamp, read from the container without decoding (mediabunny). */
export async function readPacketTimestamps(path: string): Promise<{ timestampsS: number[]; durationS: number } | null> {
  const input = new Input({ source: new FilePathSource(path), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) return null;
    const sink = new EncodedPacketSink(track);
    const timestampsS: number[] = [];
    for await (const packet of sink.packets(undefined, undefined, { metadataOnly: true }))
      timestampsS.push(packet.timestamp);
    return { timestampsS, durationS: await track.computeDuration() };
  } catch {
    return null;
  } finally {
    input.dispose();
  }
}

const UNREADABLE_MESSAGE = "The video's frames cannot be read from its file, so it cannot hold spans.";

/**
 * The video's stored frame times (video_frame_times); null: not computed yet. A file the job found no frames in is
 * a 422 with its reason, as when it was read.
 */
export async function storedVideoFrameTimes(prisma: PrismaClient, videoId: string): Promise<FrameTimes | null> {
  const stored = await prisma.videoFrameTimes.findUnique({ where: { videoId } });
  if (stored?.unreadable) throw new UnusableVideoError("unreadable_frames", stored.unreadable);
  return stored ? { timesS: stored.timesS, endS: stored.endS, variable: stored.variable } : null;
}

const PENDING_MESSAGE =
  "The video's frame times are not yet computed: a worker reads them from its file once its frames are registered. Try again shortly.";

/** A request met a video whose frame times the job (./frame-times-jobs.ts) has not stored yet. */
export class FrameTimesPendingError extends AppError {
  constructor() {
    super(409, "frame_times_pending", PENDING_MESSAGE);
  }
}

/**
 * The video's frame times, as a request reads them: stored only, never read from the video's file during a request
 * (the frame-times job computes them when its frames are registered). None stored is a 409 that says so.
 */
export async function videoFrameTimes(
  deps: { prisma: PrismaClient; queueFrameTimes?: (videoIds: string[]) => Promise<void> },
  video: { id: string },
): Promise<FrameTimes> {
  const times = await frameTimesOrPending(deps, video);
  if ("pending" in times) throw new FrameTimesPendingError();
  return times;
}

/**
 * The video's frame times, or that a worker has yet to read them (what `GET …/frame-times` answers with a 202, so a
 * page that waits for them asks again without an error). A video whose job was never queued (frames registered by
 * hand, a queueing that failed) gets one: queueing reads no file, and the one waiting job per video (its singleton
 * key) makes asking again harmless.
 */
export async function frameTimesOrPending(
  deps: { prisma: PrismaClient; queueFrameTimes?: (videoIds: string[]) => Promise<void> },
  video: { id: string },
): Promise<FrameTimes | { pending: true; message: string }> {
  const stored = await storedVideoFrameTimes(deps.prisma, video.id);
  if (stored) return stored;
  await deps.queueFrameTimes?.([video.id]).catch(() => undefined);
  return { pending: true, message: PENDING_MESSAGE };
}

/**
 * The video's frame times, read from its stored file when none are stored yet and kept (video_frame_times), so every
 * span of it converts frames and seconds the same way: the frame-times job's work, and a worker's close of a video
 * the job has not reached. A file whose packets cannot be read is a 422.
 */
export async function computeVideoFrameTimes(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  video: { id: string; storageKey: string },
): Promise<FrameTimes> {
  const stored = await storedVideoFrameTimes(deps.prisma, video.id);
  if (stored) return stored;
  let missing = false;
  const read = await deps.storage.withLocalFile(video.storageKey, readPacketTimestamps).catch((error: unknown) => {
    // A bucket answers for a missing object before the file is read (a local directory reads no file, the same 422).
    if (error instanceof StorageNotFoundError) {
      missing = true;
      return null;
    }
    throw error;
  });
  const times = read && frameTimesFromTimestamps(read.timestampsS, read.durationS);
  if (!times) {
    // A file that was read and held no frames keeps its reason; a missing file does not (it may be stored later).
    if (!missing && (read !== null || (await deps.storage.stat(video.storageKey)) !== null))
      await deps.prisma.videoFrameTimes.createMany({
        data: [{ videoId: video.id, timesS: [], endS: 0, variable: false, unreadable: UNREADABLE_MESSAGE }],
        skipDuplicates: true,
      });
    throw new UnusableVideoError("unreadable_frames", UNREADABLE_MESSAGE);
  }
  // Two computations at once (two workers taking the job, a job and a closing run) read the same file: the first row
  // stands and the other insert is dropped (ON CONFLICT DO NOTHING), never a unique violation.
  await deps.prisma.videoFrameTimes.createMany({
    data: [{ videoId: video.id, timesS: [...times.timesS], endS: times.endS, variable: times.variable }],
    skipDuplicates: true,
  });
  return times;
}
