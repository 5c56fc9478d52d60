import { ALL_FORMATS, EncodedPacketSink, FilePathSource, Input } from "mediabunny";
import type { PrismaClient } from "../generated/prisma/client";
import { type ObjectStorage, StorageNotFoundError } from "../storage/object-storage";
import { UnusableVideoError } from "../errors";
import { type FrameTimes, frameTimesFromTimestamps } from "./frame-times";

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

/**
 * The video's frame times: read once from its stored file and kept (video_frame_times), so every span of it converts
 * frames and seconds the same way. A file whose packets cannot be read is a 422.
 */
export async function videoFrameTimes(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  video: { id: string; storageKey: string },
): Promise<FrameTimes> {
  const stored = await deps.prisma.videoFrameTimes.findUnique({ where: { videoId: video.id } });
  if (stored) return { timesS: stored.timesS, endS: stored.endS, variable: stored.variable };
  const read = await deps.storage.withLocalFile(video.storageKey, readPacketTimestamps).catch((error: unknown) => {
    // A bucket answers for a missing object before the file is read (a local directory reads no file, the same 422).
    if (error instanceof StorageNotFoundError) return null;
    throw error;
  });
  const times = read && frameTimesFromTimestamps(read.timestampsS, read.durationS);
  if (!times)
    throw new UnusableVideoError(
      "unreadable_frames",
      "The video's frames cannot be read from its file, so it cannot hold spans.",
    );
  // Two first reads at once (two runs closing the video, a page and a run) read the same file: the first row stands
  // and the other insert is dropped (ON CONFLICT DO NOTHING), never a unique violation.
  await deps.prisma.videoFrameTimes.createMany({
    data: [{ videoId: video.id, timesS: [...times.timesS], endS: times.endS, variable: times.variable }],
    skipDuplicates: true,
  });
  return times;
}
