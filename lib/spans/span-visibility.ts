import type { PrismaClient } from "../generated/prisma/client";
import { isBlindFor } from "../visibility/judge-visibility";
import { requireWholeView } from "../visibility/withheld";
import type { SpanRecord } from "./span-types";

/**
 * The spans of a video the caller may see: all of them, except while the caller reviews the video blind (a blind
 * queue they have not submitted it in), when only their own spans show; the judge's, the gold and other people's
 * stay hidden until they submit, as the judge's values do.
 */
export async function visibleSpansFor(
  prisma: PrismaClient,
  userId: string,
  videoId: string,
  spans: readonly SpanRecord[],
): Promise<{ spans: SpanRecord[]; blind: boolean }> {
  if (!(await isBlindFor(prisma, userId, videoId))) return { spans: [...spans], blind: false };
  return { spans: spans.filter((s) => s.authorKind === "reviewer" && s.authorId === userId), blind: true };
}

/**
 * Refuses (409 `withheld`) an answer computed over a run's finished videos while the caller reviews any of them blind:
 * deriving a run's judge spans answers with totals and per-video reasons over those videos, so it is whole or withheld
 * like the other aggregates, decided before anything is derived.
 */
export async function requireRunVideosInView(
  prisma: PrismaClient,
  userId: string,
  runId: string,
  what: string,
): Promise<void> {
  const done = await prisma.runVideo.findMany({ where: { runId, status: "done" }, select: { videoId: true } });
  await requireWholeView(
    prisma,
    userId,
    done.map((v) => v.videoId),
    what,
  );
}
