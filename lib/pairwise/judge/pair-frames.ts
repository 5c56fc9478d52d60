/**
 * The frames a pairwise question shows of each video: its newest frame set's frames, thinned evenly to the run's
 * frames per video, in time order, and its file (a `video-file` run's clip); a honeypot's B is made from A's frames
 * (./honeypot-frames.ts) and has no file. A video deleted after its pair was made has none, and the question is
 * answered "not judged" with no call.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ClipRef, FrameRef } from "../../task-modules/pipeline-types";
import { clipRefOf, VIDEO_CLIP_SELECT } from "../../videos/video-clip";
import { honeypotFrames, honeypotKindOf, type ShownFrame } from "./honeypot-frames";
import type { ShownVideo } from "./pairwise-request";

export interface PairVideos {
  a: ShownVideo | null;
  b: ShownVideo | null;
  /** Why a side cannot be shown (its video deleted, or without frames), for the answer that says so. */
  missing: string | null;
}

/** A video's frames (thinned to `count`) and its file, read together with its newest frame set. */
async function videoFrames(
  prisma: PrismaClient,
  videoId: string | null,
  count: number,
): Promise<{ frames: FrameRef[]; clip: ClipRef | null }> {
  if (videoId === null) return { frames: [], clip: null };
  const set = await prisma.frameSet.findFirst({
    where: { videoId },
    orderBy: { createdAt: "desc" },
    select: {
      video: { select: VIDEO_CLIP_SELECT },
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
  return { frames: evenly(set?.frames ?? [], count), clip: set ? clipRefOf(set.video) : null };
}

/** `count` frames spread evenly over the list (all of them when it has no more). */
export function evenly<T>(frames: readonly T[], count: number): T[] {
  if (frames.length <= count) return [...frames];
  return Array.from({ length: count }, (_, i) => frames[Math.floor(((i + 0.5) * frames.length) / count)]!);
}

const shown = ({ frames, clip }: { frames: readonly FrameRef[]; clip: ClipRef | null }): ShownVideo => ({
  frames: frames.map((frame) => ({ ...frame, damaged: false })),
  timesS: frames.map((frame) => frame.timestampS),
  clip,
});

export async function loadPairVideos(
  prisma: PrismaClient,
  pair: { id: string; videoAId: string | null; videoBId: string | null; honeypot: unknown },
  framesPerVideo: number,
): Promise<PairVideos> {
  const a = await videoFrames(prisma, pair.videoAId, framesPerVideo);
  if (a.frames.length === 0)
    return { a: null, b: null, missing: pair.videoAId ? "video A has no frames" : "video A was deleted" };
  const kind = honeypotKindOf(pair.honeypot);
  if (kind) {
    const frames: ShownFrame[] = honeypotFrames(kind, a.frames, pair.id);
    // The copy keeps A's times: the frame list must not tell the judge which video is the broken one. It has no
    // file of its own, so its question goes as pictures in every input mode.
    const shownA = shown(a);
    return { a: shownA, b: { frames, timesS: shownA.timesS, clip: null }, missing: null };
  }
  const b = await videoFrames(prisma, pair.videoBId, framesPerVideo);
  if (b.frames.length === 0)
    return { a: null, b: null, missing: pair.videoBId ? "video B has no frames" : "video B was deleted" };
  return { a: shown(a), b: shown(b), missing: null };
}
