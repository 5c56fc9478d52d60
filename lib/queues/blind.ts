import type { PrismaClient } from "../generated/prisma/client";
import { TASKS } from "../tasks/registry";

/**
 * Blind review: a reviewer who holds an unsubmitted claim on a video in a blind queue must not see
 * the judge's values (scores, verdict, overall, summary, the scoring steps' outputs) nor other
 * reviewers' values for that video, anywhere, until they submit. This is enforced on the server:
 * every response that carries judge values for a video asks here first.
 */

/** Steps whose outputs carry the judge's scores, as each task declares them (other steps' outputs carry none). */
export const JUDGE_SCORE_STEPS: ReadonlySet<string> = new Set(TASKS.flatMap((t) => t.metricSteps ?? []));

/** The videos (of `videoIds`, or all) on which the user holds an unsubmitted claim in a live blind queue. */
export async function blindVideoIdsFor(prisma: PrismaClient, userId: string, videoIds?: string[]): Promise<Set<string>> {
  if (videoIds && videoIds.length === 0) return new Set();
  const rows = await prisma.reviewQueueAssignment.findMany({
    where: {
      reviewerId: userId,
      status: "claimed",
      item: { ...(videoIds ? { videoId: { in: videoIds } } : {}), queue: { blind: true, archivedAt: null } },
    },
    select: { item: { select: { videoId: true } } },
  });
  return new Set(rows.map((row) => row.item.videoId));
}

export async function isBlindFor(prisma: PrismaClient, userId: string, videoId: string): Promise<boolean> {
  return (await blindVideoIdsFor(prisma, userId, [videoId])).has(videoId);
}

interface VideoScoresLike {
  summary: unknown;
  steps: { stepId: string; output: unknown; scores: unknown[] }[];
}

/**
 * GET /videos/:id/scores for this user: unchanged with `blind: false`, or without the judge's
 * summary, scores and scoring-step outputs and with `blind: true`.
 */
export async function redactVideoScoresFor<T extends VideoScoresLike>(prisma: PrismaClient, userId: string, videoId: string, payload: T): Promise<T & { blind: boolean }> {
  if (!(await isBlindFor(prisma, userId, videoId))) return { ...payload, blind: false };
  return {
    ...payload,
    blind: true,
    summary: null,
    steps: payload.steps.map((step) => ({ ...step, scores: [], output: JUDGE_SCORE_STEPS.has(step.stepId) ? null : step.output })),
  };
}

interface VideoReviewsLike {
  judgments: { reviewer: { id: string }; judge: unknown }[];
}

/**
 * GET /videos/:id/reviews for this user: unchanged with `blind: false`, or only the user's own
 * judgments, without the judge's values, and `blind: true`.
 */
export async function redactVideoReviewsFor<T extends VideoReviewsLike>(prisma: PrismaClient, userId: string, videoId: string, payload: T): Promise<T & { blind: boolean }> {
  if (!(await isBlindFor(prisma, userId, videoId))) return { ...payload, blind: false };
  return { ...payload, blind: true, judgments: payload.judgments.filter((j) => j.reviewer.id === userId).map((j) => ({ ...j, judge: null })) };
}
