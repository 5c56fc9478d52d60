import { readRunMetric } from "../judge/run-metrics";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { AppError, NotFoundError, ValidationError } from "../errors";
import { redactVideoReviewsFor } from "../queues/blind";
import { disagreesWithJudge } from "./disagreement";
import type { ReviewInput } from "./reviews.validation";

/** Two saves raced, or a second tab edited an older version: nothing was overwritten. */
export class ReviewConflictError extends AppError {
  constructor(
    readonly current: { version: number; value: number; note: string | null; updatedAt: Date },
    /** `missing_version`: the caller sent no expectedVersion for a judgment that already exists. */
    cause: "stale_version" | "missing_version" = "stale_version",
  ) {
    super(
      409,
      "conflict",
      cause === "missing_version"
        ? `You already judged this (version ${current.version}, value ${current.value}); send expectedVersion ${current.version} to update it.`
        : `This judgment was changed elsewhere (now version ${current.version}, value ${current.value}). Reload it, then save again.`,
      { current: { version: current.version, value: current.value, note: current.note, updatedAt: current.updatedAt } },
    );
  }
}

const scoreRange: Record<string, [number, number]> = { inconsistency: [0, 10] };
function rangeOf(category: string): [number, number] {
  return scoreRange[category] ?? [0, 10];
}

/**
 * Sets the caller's own judgment of one judge score. The judge's value stays as it is; the
 * reviewer's current value is kept per reviewer, and every change is appended to the history.
 */
export async function reviewScore(prisma: PrismaClient, actor: Actor, scoreId: string, input: ReviewInput) {
  const score = await prisma.score.findUnique({ where: { id: scoreId }, include: { stepResult: { select: { run: { select: { projectId: true } } } } } });
  if (!score) throw new NotFoundError("No such score.");
  const projectId = score.stepResult.run.projectId;
  try {
    await requireProjectAccess(prisma, actor, projectId, "scores.review");
  } catch (error) {
    throw error instanceof NotFoundError ? new NotFoundError("No such score.") : error;
  }
  const [min, max] = rangeOf(score.category);
  if (input.value < min || input.value > max) throw new ValidationError(`value must be between ${min} and ${max}.`);
  return saveJudgment(prisma, actor, {
    projectId,
    targetType: "score",
    targetKey: `score:${score.id}`,
    scoreId: score.id,
    runId: score.runId,
    videoId: score.videoId,
    judgeValue: score.value,
    input,
  });
}

/**
 * The caller's own per-video judgment in a run: the hallucination verdict (1 yes, 0 no) or the
 * overall score (0–100). The judge's summary is never changed.
 */
export async function reviewVideoOutcome(prisma: PrismaClient, actor: Actor, runId: string, videoId: string, target: "verdict" | "overall", input: ReviewInput) {
  const runVideo = await prisma.runVideo.findUnique({ where: { runId_videoId: { runId, videoId } }, include: { run: { select: { projectId: true } } } });
  if (!runVideo) throw new NotFoundError("No such video in that run.");
  try {
    await requireProjectAccess(prisma, actor, runVideo.run.projectId, "scores.review");
  } catch (error) {
    throw error instanceof NotFoundError ? new NotFoundError("No such video in that run.") : error;
  }
  if (target === "verdict" && input.value !== 0 && input.value !== 1) throw new ValidationError("A verdict is 1 (hallucination) or 0 (none).");
  if (target === "overall" && (input.value < 0 || input.value > 100)) throw new ValidationError("overall must be between 0 and 100.");
  return saveJudgment(prisma, actor, {
    projectId: runVideo.run.projectId,
    targetType: target,
    targetKey: `${target}:${runId}:${videoId}`,
    scoreId: null,
    runId,
    videoId,
    // The target is the run's metric of the same id (the verdict stored as 1/0).
    judgeValue: await readRunMetric(prisma, runId, videoId, target),
    input,
  });
}

async function saveJudgment(
  prisma: PrismaClient,
  actor: Actor,
  target: { projectId: string; targetType: string; targetKey: string; scoreId: string | null; runId: string; videoId: string; judgeValue: number | null; input: ReviewInput },
) {
  const { input } = target;
  const after = { value: input.value, note: input.note ?? null, reason: input.reason ?? null };
  const judge = { judgeValue: target.judgeValue, disagrees: disagreesWithJudge(target.targetType, input.value, target.judgeValue) };
  return prisma.$transaction(async (tx) => {
    const existing = await tx.humanJudgment.findUnique({ where: { targetKey_reviewerId: { targetKey: target.targetKey, reviewerId: actor.userId } } });
    if (!existing) {
      if (input.expectedVersion !== undefined && input.expectedVersion !== 0) throw new NotFoundError("There is no earlier judgment of yours to update.");
      try {
        const created = await tx.humanJudgment.create({
          data: { projectId: target.projectId, targetType: target.targetType, targetKey: target.targetKey, scoreId: target.scoreId, runId: target.runId, videoId: target.videoId, reviewerId: actor.userId, ...after, ...judge },
        });
        await tx.humanJudgmentHistory.create({ data: { judgmentId: created.id, reviewerId: actor.userId, version: 1, before: undefined, after } });
        return created;
      } catch (error) {
        // The same reviewer's other tab created it first.
        if ((error as { code?: string }).code === "P2002") {
          const winner = await prisma.humanJudgment.findUniqueOrThrow({ where: { targetKey_reviewerId: { targetKey: target.targetKey, reviewerId: actor.userId } } });
          throw new ReviewConflictError(winner);
        }
        throw error;
      }
    }
    // Updating needs the version the reviewer saw, so a blind retry can never overwrite another tab's save.
    if (input.expectedVersion === undefined) throw new ReviewConflictError(existing, "missing_version");
    if (input.expectedVersion !== existing.version) throw new ReviewConflictError(existing);
    // Compare-and-set on the version: of two saves of the same version, exactly one wins.
    const updated = await tx.humanJudgment.updateMany({
      where: { id: existing.id, version: existing.version },
      data: { ...after, ...judge, version: existing.version + 1 },
    });
    if (updated.count === 0) {
      const current = await prisma.humanJudgment.findUniqueOrThrow({ where: { id: existing.id } });
      throw new ReviewConflictError(current);
    }
    await tx.humanJudgmentHistory.create({
      data: {
        judgmentId: existing.id,
        reviewerId: actor.userId,
        version: existing.version + 1,
        before: { value: existing.value, note: existing.note, reason: existing.reason } as Prisma.InputJsonValue,
        after,
      },
    });
    return tx.humanJudgment.findUniqueOrThrow({ where: { id: existing.id } });
  });
}

/** Every reviewer's judgments of a video, each with its full history, beside the judge's values. */
export async function videoReviews(prisma: PrismaClient, actor: Actor, videoId: string) {
  const video = await prisma.video.findUnique({ where: { id: videoId }, select: { projectId: true } });
  if (!video) throw new NotFoundError("No such video.");
  try {
    await requireProjectAccess(prisma, actor, video.projectId, "project.view");
  } catch (error) {
    throw error instanceof NotFoundError ? new NotFoundError("No such video.") : error;
  }
  const judgments = await prisma.humanJudgment.findMany({
    where: { videoId },
    orderBy: [{ targetKey: "asc" }, { createdAt: "asc" }],
    include: { history: { orderBy: { version: "asc" } } },
  });
  const reviewers = await prisma.user.findMany({ where: { id: { in: [...new Set(judgments.map((j) => j.reviewerId))] } }, select: { id: true, email: true, name: true } });
  const scores = await prisma.score.findMany({ where: { id: { in: judgments.flatMap((j) => (j.scoreId ? [j.scoreId] : [])) } }, select: { id: true, value: true, category: true, stepId: true, scopeIndex: true } });
  // Blind review queues: only the reviewer's own judgments, without the judge's, until they submit.
  return redactVideoReviewsFor(prisma, actor.userId, videoId, {
    videoId,
    judgments: judgments.map((j) => ({
      id: j.id,
      targetType: j.targetType,
      scoreId: j.scoreId,
      runId: j.runId,
      judge: scores.find((s) => s.id === j.scoreId) ?? null,
      reviewer: reviewers.find((r) => r.id === j.reviewerId) ?? { id: j.reviewerId },
      value: j.value,
      note: j.note,
      reason: j.reason,
      version: j.version,
      updatedAt: j.updatedAt,
      history: j.history.map((h) => ({ version: h.version, at: h.at, by: h.reviewerId, before: h.before, after: h.after })),
    })),
  });
}
