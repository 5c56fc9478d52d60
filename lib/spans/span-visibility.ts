import type { PrismaClient, ProjectRole } from "../generated/prisma/client";
import { roleCan } from "../authz/permissions";
import { isBlindFor } from "../visibility/judge-visibility";
import { requireWholeView } from "../visibility/withheld";
import type { SpanRecord } from "./span-types";

/**
 * The spans of a video the caller may see: all of them, except while the caller reviews the video blind (a blind
 * queue they have not submitted it in), when only their own spans show; the judge's, the gold and other people's
 * stay hidden until they submit, as the judge's values do. Reviewers' spans carry their author's name only for a
 * caller who may see who marked what (owners, who see each reviewer's values by email when adjudicating); to
 * everyone else another reviewer stays unnamed.
 */
export async function visibleSpansFor(
  prisma: PrismaClient,
  caller: { userId: string; role: ProjectRole },
  videoId: string,
  spans: readonly SpanRecord[],
): Promise<{ spans: SpanRecord[]; blind: boolean }> {
  if (await isBlindFor(prisma, caller.userId, videoId))
    return { spans: spans.filter((s) => s.authorKind === "reviewer" && s.authorId === caller.userId), blind: true };
  if (!mayNameReviewers(caller.role)) return { spans: [...spans], blind: false };
  return { spans: await withAuthorNames(prisma, spans), blind: false };
}

/** Whether the caller may see which reviewer marked a span: those who adjudicate reviewers' work. */
export function mayNameReviewers(role: ProjectRole): boolean {
  return roleCan(role, "gold.set");
}

/** The spans with each reviewer's name (else email) as `authorName`. */
async function withAuthorNames(prisma: PrismaClient, spans: readonly SpanRecord[]): Promise<SpanRecord[]> {
  const ids = [...new Set(spans.filter((s) => s.authorKind === "reviewer").map((s) => s.authorId))];
  if (ids.length === 0) return [...spans];
  const users = await prisma.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, email: true },
  });
  const names = new Map(users.map((u) => [u.id, u.name.trim() || u.email]));
  return spans.map((s) => {
    const name = s.authorKind === "reviewer" ? names.get(s.authorId) : undefined;
    return name ? { ...s, authorName: name } : s;
  });
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
