import type { Pair, PairSet, Prisma, PrismaClient, Video } from "../../generated/prisma/client";
import type { Side, Strength, Verdict } from "../verdicts";
import { aspectsOf } from "./review-access";
import {
  BROKEN_RENDERINGS,
  type BrokenRendering,
  type PairForReview,
  type ReviewProgress,
  type ReviewVerdict,
  type ReviewVideo,
} from "./review.types";

type VideoFacts = Pick<Video, "id" | "fps" | "durationS" | "width" | "height">;
const videoFacts = { id: true, fps: true, durationS: true, width: true, height: true } as const;

function playable(video: VideoFacts | null): Omit<ReviewVideo, "name" | "generator" | "rendering"> {
  return {
    videoId: video?.id ?? null,
    url: video ? `/api/v1/videos/${video.id}/file` : null,
    fps: video?.fps ?? null,
    durationS: video?.durationS ?? null,
    width: video?.width ?? null,
    height: video?.height ?? null,
  };
}

/** The broken rendering a honeypot pair asks for, or null for an ordinary pair. */
export function brokenRenderingOf(honeypot: Prisma.JsonValue | null): BrokenRendering | null {
  if (!honeypot || typeof honeypot !== "object" || Array.isArray(honeypot)) return null;
  const kind = (honeypot as Record<string, unknown>).kind;
  return BROKEN_RENDERINGS.find((rendering) => rendering === kind) ?? null;
}

export function reviewVerdictOf(row: {
  aspect: string;
  verdict: string;
  strength: number;
  version: number;
  withdrawn: boolean;
  note: string;
}): ReviewVerdict {
  return {
    aspect: row.aspect,
    verdict: row.verdict as Verdict,
    strength: (row.strength === 2 ? 2 : 1) as Strength,
    version: row.version,
    withdrawn: row.withdrawn,
    note: row.note,
  };
}

/**
 * The pair as this reviewer sees it. A blind set sends no generator or name at all (not even hidden in the page);
 * a honeypot's video B is video A's file drawn broken, so the browser is told how to draw it, not that it is a test.
 */
export async function pairForReview(
  prisma: PrismaClient | Prisma.TransactionClient,
  set: PairSet,
  pair: Pair,
  claim: { aShownOn: string; status: string },
  reviewerId: string,
): Promise<PairForReview> {
  const [videoA, videoB, verdicts] = await Promise.all([
    pair.videoAId ? prisma.video.findUnique({ where: { id: pair.videoAId }, select: videoFacts }) : null,
    pair.videoBId ? prisma.video.findUnique({ where: { id: pair.videoBId }, select: videoFacts }) : null,
    prisma.pairVerdict.findMany({
      where: { pairId: pair.id, raterId: reviewerId, raterKind: "reviewer" },
      orderBy: { aspect: "asc" },
    }),
  ]);
  const rendering = brokenRenderingOf(pair.honeypot);
  const a: ReviewVideo = playable(videoA);
  const b: ReviewVideo = rendering ? { ...playable(videoA), rendering } : playable(videoB);
  if (!set.blind) {
    Object.assign(a, { name: pair.nameA, generator: pair.generatorA });
    Object.assign(b, { name: pair.nameB, generator: pair.generatorB });
  }
  return {
    pairId: pair.id,
    position: pair.position,
    prompt: pair.prompt,
    blind: set.blind,
    aShownOn: claim.aShownOn === "right" ? "right" : "left",
    status: claim.status === "done" ? "done" : "claimed",
    a,
    b,
    aspects: aspectsOf(set),
    guidelines: set.guidelines,
    verdicts: verdicts.map(reviewVerdictOf),
  };
}

export async function reviewProgress(
  prisma: PrismaClient | Prisma.TransactionClient,
  pairSetId: string,
  reviewerId: string,
): Promise<ReviewProgress> {
  const [done, total] = await Promise.all([
    prisma.pairAssignment.count({ where: { pairSetId, reviewerId, status: "done" } }),
    prisma.pair.count({ where: { pairSetId } }),
  ]);
  return { done, total };
}

/** The side video A is shown on to a reviewer, drawn once at the claim. */
export function drawSide(random: () => number = Math.random): Side {
  return random() < 0.5 ? "left" : "right";
}
