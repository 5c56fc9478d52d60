/**
 * The frames a pairwise question shows of each video: its newest frame set's frames, thinned evenly to the run's
 * frames per video, in time order, and its file (a `video-file` run's clip); a honeypot's B is made from A's frames
 * (./honeypot-frames.ts) and has no file. A video deleted after its
 * pair was made has none, and the question is answered "not judged" with no call.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ClipRef, FrameRef } from "../../task-modules/pipeline-types";
import { honeypotFrames, honeypotKindOf, type ShownFrame } from "./honeypot-frames";
import type { ShownVideo } from "./pairwise-request";

export interface PairVideos {
  a: ShownVideo | null;
  b: ShownVideo | null;
  /** Why a side cannot be shown (its video deleted, or without frames), for the answer that says so. */
  missing: string | null;
}

async function videoFrames(prisma: PrismaClient, videoId: string | null, count: number): Promise<FrameRef[]> {
  if (videoId === null) return [];
  const set = await prisma.frameSet.findFirst({
    where: { videoId },
    orderBy: { createdAt: "desc" },
    select: {
      frames: {
        orderBy: { index: "asc" },
        select: {
          id: true,
          index: true,
          timestampS: true,
          isKeyFrame: true,
          cluster: true,
          storageKey: true,
          sha256: true,
        },
      },
    },
  });
  return evenly(set?.frames ?? [], count);
}

/** `count` frames spread evenly over the list (all of them when it has no more). */
export function evenly<T>(frames: readonly T[], count: number): T[] {
  if (frames.length <= count) return [...frames];
  return Array.from({ length: count }, (_, i) => frames[Math.floor(((i + 0.5) * frames.length) / count)]!);
}

const shown = (frames: readonly FrameRef[], clip: ClipRef | null): ShownVideo => ({
  frames: frames.map((frame) => ({ ...frame, damaged: false })),
  timesS: frames.map((frame) => frame.timestampS),
  clip,
});

/** The video's file as a `video-file` question sends it (null for a deleted video). */
async function videoClip(prisma: PrismaClient, videoId: string | null): Promise<ClipRef | null> {
  if (videoId === null) return null;
  const video = await prisma.video.findUnique({
    where: { id: videoId },
    select: { storageKey: true, sha256: true, sizeBytes: true, contentType: true, durationS: true },
  });
  return video ? { ...video, sizeBytes: Number(video.sizeBytes) } : null;
}

export async function loadPairVideos(
  prisma: PrismaClient,
  pair: { id: string; videoAId: string | null; videoBId: string | null; honeypot: unknown },
  framesPerVideo: number,
): Promise<PairVideos> {
  const aFrames = await videoFrames(prisma, pair.videoAId, framesPerVideo);
  if (aFrames.length === 0)
    return { a: null, b: null, missing: pair.videoAId ? "video A has no frames" : "video A was deleted" };
  const kind = honeypotKindOf(pair.honeypot);
  if (kind) {
    const frames: ShownFrame[] = honeypotFrames(kind, aFrames, pair.id);
    // The copy keeps A's times: the frame list must not tell the judge which video is the broken one. It has no
    // file of its own, so its question goes as pictures in every input mode.
    const a = shown(aFrames, null);
    return { a, b: { frames, timesS: a.timesS, clip: null }, missing: null };
  }
  const bFrames = await videoFrames(prisma, pair.videoBId, framesPerVideo);
  if (bFrames.length === 0)
    return { a: null, b: null, missing: pair.videoBId ? "video B has no frames" : "video B was deleted" };
  const [aClip, bClip] = await Promise.all([videoClip(prisma, pair.videoAId), videoClip(prisma, pair.videoBId)]);
  return { a: shown(aFrames, aClip), b: shown(bFrames, bClip), missing: null };
}
