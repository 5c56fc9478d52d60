import { readRunMetric } from "../run-records/run-metrics";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import type { ProjectAccess } from "../authz/permissions";
import { AppError, NotFoundError, ValidationError } from "../errors";
import { blindVideoIdsFor, redactVideoReviewsFor } from "../visibility/judge-visibility";
import { catalogFor, runTask, type TaskCatalogue } from "../task-modules/task-catalogue";
import { disagreesWithJudge } from "./disagreement";
import { type JudgedDeclaration, judgmentDeclaration, SCORE_TARGET_TYPE } from "./judgment-target";
import { type JudgmentTarget, judgmentKey, metricTarget, presenceTarget, scoreTarget } from "./judgment-key";
import { disagreementGapOf, judgePresence, presenceTargetOf } from "../task-modules/task-declaration";
import type { ReviewInput, WithdrawInput } from "./reviews.validation";
import { isPrismaError, UNIQUE_VIOLATION } from "../db/prisma-errors";

/**
 * How a judgment's value came about: "typed" by the reviewer, or "implied_by_absence", stored by a
 * presence-first queue for a score of a category the reviewer marked absent (the declared absent value,
 * never asked). Agreement leaves implied values out unless asked (lib/agreement/load.ts).
 */
export type JudgmentOrigin = "typed" | "implied_by_absence";
export const IMPLIED_BY_ABSENCE: JudgmentOrigin = "implied_by_absence";

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

/** Why a value is not on the declared scale (a numeric range, or one of the named values), or null. */
export function outOfScale(declaration: JudgedDeclaration, value: number): string | null {
  const scale = declaration.scale;
  if (scale.kind === "categorical") {
    if (scale.values.some((v) => v.value === value)) return null;
    const positive = declaration.positive;
    const negative = scale.values.filter((v) => positive.op !== "==" || v.value !== positive.value);
    // A yes/no scale reads as what its positive value means ("A verdict is 1 (hallucination) or 0 (none).").
    if (positive.op === "==" && negative.length === 1)
      return `A ${declaration.id} is ${positive.value} (${positive.label}) or ${negative[0]!.value} (none).`;
    return `${declaration.label} is one of ${scale.values.map((v) => `${v.value} (${v.label})`).join(", ")}.`;
  }
  return value < scale.min || value > scale.max ? `value must be between ${scale.min} and ${scale.max}.` : null;
}

/**
 * A judgment checked against its target's declaration and ready to write: what `reviewScore`,
 * `reviewVideoOutcome` and a queue's presence step save, and what a queue submission prepares for each of an item's
 * targets before writing them all in one transaction (`writeJudgment`).
 */
export interface PreparedJudgment {
  declaration: JudgedDeclaration;
  projectId: string;
  target: JudgmentTarget;
  scoreId: string | null;
  runId: string | null;
  judgeValue: number | null;
  input: ReviewInput;
  origin?: JudgmentOrigin;
}

async function scoreOf(prisma: PrismaClient, scoreId: string) {
  const score = await prisma.score.findUnique({
    where: { id: scoreId },
    include: { stepResult: { select: { run: { select: { projectId: true, pipeline: true } } } } },
  });
  if (!score) throw new NotFoundError("No such score.");
  return score;
}

/**
 * The judgment of the target a judge score is about, checked against its scale. Checks no permission: the
 * caller has checked "scores.review" in the score's project (`reviewScore`, or a queue of the score's run).
 */
export async function prepareScoreJudgment(
  prisma: PrismaClient,
  scoreId: string,
  input: ReviewInput,
  origin: JudgmentOrigin = "typed",
  known?: Awaited<ReturnType<typeof scoreOf>>,
  catalogue?: TaskCatalogue,
): Promise<PreparedJudgment> {
  const score = known ?? (await scoreOf(prisma, scoreId));
  const { projectId, pipeline } = score.stepResult.run;
  const task = await runTask(prisma, { projectId, pipeline }, catalogue);
  const declaration = judgmentDeclaration(SCORE_TARGET_TYPE, score.category, [task]);
  const problem = outOfScale(declaration, input.value);
  if (problem) throw new ValidationError(problem);
  const runVideo = await prisma.runVideo.findUnique({
    where: { runId_videoId: { runId: score.runId, videoId: score.videoId } },
    select: { frameSetId: true },
  });
  return {
    declaration,
    projectId,
    target: scoreTarget(pipeline, score, runVideo?.frameSetId ?? "", task),
    scoreId: score.id,
    runId: score.runId,
    judgeValue: score.value,
    input,
    origin,
  };
}

/** What the review routes answer for a saved judgment (`judgmentResponseSchema` in the OpenAPI document). */
export function savedJudgmentAnswer(judgment: {
  id: string;
  value: number;
  note: string | null;
  reason: string | null;
  acceptedJudge: boolean;
  version: number;
  updatedAt: Date;
}) {
  const { id, value, note, reason, acceptedJudge, version, updatedAt } = judgment;
  return { id, value, note, reason, acceptedJudge, version, updatedAt };
}

/**
 * Sets the caller's own judgment of the target a judge score is about. The judge's value stays as it
 * is; the judgment belongs to the target (not to the score's run), so every run that scored the same
 * target is compared with it. Every change is appended to the history.
 */
export async function reviewScore(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  scoreId: string,
  input: ReviewInput,
  origin: JudgmentOrigin = "typed",
) {
  const score = await scoreOf(prisma, scoreId);
  // A score of another project reads as missing, as one that does not exist.
  if (score.stepResult.run.projectId !== access.projectId) throw new NotFoundError("No such score.");
  return saveJudgment(prisma, access.actor, await prepareScoreJudgment(prisma, scoreId, input, origin, score));
}

async function runVideoOf(prisma: PrismaClient, runId: string, videoId: string) {
  const runVideo = await prisma.runVideo.findUnique({
    where: { runId_videoId: { runId, videoId } },
    include: { run: { select: { projectId: true, pipeline: true } } },
  });
  if (!runVideo) throw new NotFoundError("No such video in that run.");
  return runVideo;
}

/** A run video of another project than the access's reads as missing, as one that does not exist. */
function requireRunVideoIn(access: ProjectAccess, runVideo: { run: { projectId: string } }) {
  if (runVideo.run.projectId !== access.projectId) throw new NotFoundError("No such video in that run.");
}

/** The judgment of one of the run's reviewed per-subject metrics, checked against its scale. Checks no permission (as `prepareScoreJudgment`). */
export async function prepareOutcomeJudgment(
  prisma: PrismaClient,
  runId: string,
  videoId: string,
  target: string,
  input: ReviewInput,
  known?: Awaited<ReturnType<typeof runVideoOf>>,
  catalogue?: TaskCatalogue,
): Promise<PreparedJudgment> {
  const runVideo = known ?? (await runVideoOf(prisma, runId, videoId));
  const metric = (await runTask(prisma, runVideo.run, catalogue)).metrics.find((m) => m.id === target && m.reviewed);
  if (!metric) throw new ValidationError(`"${target}" is not something reviewers judge in this run.`);
  const problem = outOfScale(metric, input.value);
  if (problem) throw new ValidationError(metric.scale.kind === "numeric" ? `${metric.id} ${problem}` : problem);
  return {
    declaration: metric,
    projectId: runVideo.run.projectId,
    target: metricTarget(runVideo.run.pipeline, videoId, "", target),
    scoreId: null,
    runId,
    // The target is the run's metric of the same id (the verdict stored as 1/0).
    judgeValue: await readRunMetric(prisma, runId, videoId, target),
    input,
  };
}

/**
 * The caller's own judgment of one of the task's reviewed per-subject metrics (for hallucination: a
 * video's verdict, 1 yes / 0 no, or its overall score 0–100), on the metric's declared scale, as seen
 * in a run. The judge's summary is never changed.
 */
export async function reviewVideoOutcome(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  runId: string,
  videoId: string,
  target: string,
  input: ReviewInput,
) {
  const runVideo = await runVideoOf(prisma, runId, videoId);
  requireRunVideoIn(access, runVideo);
  return saveJudgment(
    prisma,
    access.actor,
    await prepareOutcomeJudgment(prisma, runId, videoId, target, input, runVideo),
  );
}

/** The presence judgment of one of the task's graded categories in a video, checked. Checks no permission (as `prepareScoreJudgment`). */
export async function preparePresenceJudgment(
  prisma: PrismaClient,
  runId: string,
  videoId: string,
  category: string,
  input: ReviewInput,
  known?: Awaited<ReturnType<typeof runVideoOf>>,
  catalogue?: TaskCatalogue,
): Promise<PreparedJudgment> {
  const runVideo = known ?? (await runVideoOf(prisma, runId, videoId));
  const task = await runTask(prisma, runVideo.run, catalogue);
  const declaration = presenceTargetOf(task, category);
  if (!declaration) throw new ValidationError(`"${category}" has no presence target in this run's task.`);
  const problem = outOfScale(declaration, input.value);
  if (problem) throw new ValidationError(`${category}: a presence is 1 (present) or 0 (absent).`);
  const scores = await prisma.score.findMany({
    where: { runId, videoId, itemId: "", category },
    select: { value: true },
  });
  return {
    declaration,
    projectId: runVideo.run.projectId,
    target: presenceTarget(runVideo.run.pipeline, videoId, category),
    scoreId: null,
    runId,
    judgeValue: judgePresence(
      scores.map((s) => s.value),
      task.presence!.defaultThreshold,
    ),
    input,
  };
}

/**
 * Why an "accepted the judge's value" mark can't be saved: the value is not the judge's, or the reviewer is
 * blind to the judge on this video (so could not have seen it). Null when it can (or nothing is accepted).
 */
export function acceptanceProblem(judgment: PreparedJudgment, blind: boolean): string | null {
  const { input } = judgment;
  if (input.acceptedJudge !== true) return null;
  // An accepted value is the judge's value, so the mark can't be put on a value of the reviewer's own.
  if (judgment.judgeValue === null || judgment.judgeValue !== input.value) {
    return judgment.judgeValue === null
      ? "There is no judge's value to accept here."
      : `Accepting takes the judge's value (${judgment.judgeValue}), not ${input.value}.`;
  }
  // While blind the judge's value is hidden, so nothing can be accepted: blind judgments stay independent.
  return blind ? "Blind queue: the judge's values are hidden until you submit, so there is nothing to accept." : null;
}

async function saveJudgment(prisma: PrismaClient, actor: Actor, judgment: PreparedJudgment) {
  if (judgment.input.acceptedJudge === true) {
    const { videoId } = judgment.target;
    const problem = acceptanceProblem(judgment, (await blindVideoIdsFor(prisma, actor.userId, [videoId])).has(videoId));
    if (problem) throw new ValidationError(problem);
  }
  return prisma.$transaction((tx) => writeJudgment(tx, actor, judgment));
}

/**
 * Writes a prepared, permitted and checked judgment (`acceptanceProblem`) inside the caller's transaction: a
 * first judgment, or a new version of an existing one (compare-and-set on the version the reviewer saw), with
 * its history entry. A conflict throws `ReviewConflictError` and leaves the transaction usable (the insert
 * runs under a savepoint), so a caller writing several judgments may decide to go on.
 */
export async function writeJudgment(tx: Prisma.TransactionClient, actor: Actor, judgment: PreparedJudgment) {
  const { input, declaration } = judgment;
  const targetKey = judgmentKey(judgment.target);
  const acceptedJudge = input.acceptedJudge === true;
  const after = { value: input.value, note: input.note ?? null, reason: input.reason ?? null, acceptedJudge };
  // The run the reviewer looked at, and how its value compares (provenance; lists compare with any run).
  const seen = {
    runId: judgment.runId,
    scoreId: judgment.scoreId,
    judgeValue: judgment.judgeValue,
    disagrees: disagreesWithJudge(declaration, input.value, judgment.judgeValue),
    origin: judgment.origin ?? "typed",
  };
  const existing = await tx.humanJudgment.findUnique({
    where: { targetKey_reviewerId: { targetKey, reviewerId: actor.userId } },
  });
  if (!existing) {
    if (input.expectedVersion !== undefined && input.expectedVersion !== 0)
      throw new NotFoundError("There is no earlier judgment of yours to update.");
    await tx.$executeRaw`SAVEPOINT judgment_create`;
    try {
      const created = await tx.humanJudgment.create({
        data: {
          projectId: judgment.projectId,
          ...judgment.target,
          targetKey,
          gap: disagreementGapOf(declaration),
          reviewerId: actor.userId,
          ...after,
          ...seen,
        },
      });
      await tx.humanJudgmentHistory.create({
        data: { judgmentId: created.id, reviewerId: actor.userId, version: 1, before: undefined, after },
      });
      await tx.$executeRaw`RELEASE SAVEPOINT judgment_create`;
      return created;
    } catch (error) {
      // The same reviewer's other tab created it first.
      if (isPrismaError(error, UNIQUE_VIOLATION)) {
        await tx.$executeRaw`ROLLBACK TO SAVEPOINT judgment_create`;
        const winner = await tx.humanJudgment.findUniqueOrThrow({
          where: { targetKey_reviewerId: { targetKey, reviewerId: actor.userId } },
        });
        throw new ReviewConflictError(winner);
      }
      throw error;
    }
  }
  // Updating needs the version the reviewer saw, so a blind retry can never overwrite another tab's save.
  // A withdrawn judgment is saved again like a first one (no version needed), or with its current version.
  if (existing.withdrawn) {
    if (
      input.expectedVersion !== undefined &&
      input.expectedVersion !== 0 &&
      input.expectedVersion !== existing.version
    )
      throw new ReviewConflictError(existing);
  } else {
    if (input.expectedVersion === undefined) throw new ReviewConflictError(existing, "missing_version");
    if (input.expectedVersion !== existing.version) throw new ReviewConflictError(existing);
  }
  // Compare-and-set on the version: of two saves of the same version, exactly one wins.
  const updated = await tx.humanJudgment.updateMany({
    where: { id: existing.id, version: existing.version },
    data: { ...after, ...seen, withdrawn: false, version: existing.version + 1 },
  });
  if (updated.count === 0) {
    const current = await tx.humanJudgment.findUniqueOrThrow({ where: { id: existing.id } });
    throw new ReviewConflictError(current);
  }
  await tx.humanJudgmentHistory.create({
    data: {
      judgmentId: existing.id,
      reviewerId: actor.userId,
      version: existing.version + 1,
      before: historyState(existing),
      after,
    },
  });
  return tx.humanJudgment.findUniqueOrThrow({ where: { id: existing.id } });
}

/** A judgment as its history records it (a withdrawn one as `{"withdrawn": true}` with its last value). */
function historyState(j: {
  value: number;
  note: string | null;
  reason: string | null;
  acceptedJudge: boolean;
  withdrawn: boolean;
}): Prisma.InputJsonValue {
  return {
    value: j.value,
    note: j.note,
    reason: j.reason,
    acceptedJudge: j.acceptedJudge,
    ...(j.withdrawn ? { withdrawn: true } : {}),
  };
}

/**
 * Withdraws the caller's own judgment: it stops counting anywhere (video list states, agreement,
 * exports, consensus) but stays in the database with a withdrawal entry in its history, so saving the
 * target again later continues its versions. Needs the version the caller saw (else `409`).
 */
export async function withdrawJudgment(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  judgmentId: string,
  input: WithdrawInput,
) {
  const { actor } = access;
  const judgment = await prisma.humanJudgment.findFirst({ where: { id: judgmentId, projectId: access.projectId } });
  // Only one's own judgment can be withdrawn; anyone else's, or one of another project, reads as missing.
  if (!judgment || judgment.reviewerId !== actor.userId || judgment.withdrawn)
    throw new NotFoundError("No such judgment of yours.");
  if (input.expectedVersion !== judgment.version) throw new ReviewConflictError(judgment);
  return prisma.$transaction(async (tx) => {
    const updated = await tx.humanJudgment.updateMany({
      where: { id: judgment.id, version: judgment.version, withdrawn: false },
      data: { withdrawn: true, version: judgment.version + 1 },
    });
    if (updated.count === 0)
      throw new ReviewConflictError(await prisma.humanJudgment.findUniqueOrThrow({ where: { id: judgment.id } }));
    await tx.humanJudgmentHistory.create({
      data: {
        judgmentId: judgment.id,
        reviewerId: actor.userId,
        version: judgment.version + 1,
        before: historyState(judgment),
        after: { withdrawn: true },
      },
    });
    return tx.humanJudgment.findUniqueOrThrow({ where: { id: judgment.id } });
  });
}

/**
 * Every reviewer's judgments of a video, each with its full history, beside the judge's values. With
 * `runId`, each judgment of a target that run scored is shown against that run (its `runId`,
 * `scoreId` and `judge` are the run's), wherever it was saved; otherwise against the run it was saved in.
 */
export async function videoReviews(
  prisma: PrismaClient,
  access: ProjectAccess,
  videoId: string,
  options: { runId?: string; itemId?: string } = {},
) {
  const { actor } = access;
  const video = await prisma.video.findFirst({
    where: { id: videoId, projectId: access.projectId },
    select: { projectId: true },
  });
  if (!video) throw new NotFoundError("No such video.");
  const judgments = await prisma.humanJudgment.findMany({
    where: { videoId, withdrawn: false, ...(options.itemId !== undefined ? { itemId: options.itemId } : {}) },
    orderBy: [{ targetKey: "asc" }, { createdAt: "asc" }],
    include: { history: { orderBy: { version: "asc" } } },
  });
  const reviewers = await prisma.user.findMany({
    where: { id: { in: [...new Set(judgments.map((j) => j.reviewerId))] } },
    select: { id: true, email: true, name: true },
  });
  const scoreSelect = {
    id: true,
    runId: true,
    value: true,
    category: true,
    stepId: true,
    scopeIndex: true,
    itemId: true,
    videoId: true,
  } as const;
  const saved = await prisma.score.findMany({
    where: { id: { in: judgments.flatMap((j) => (j.scoreId ? [j.scoreId] : [])) } },
    select: scoreSelect,
  });
  // The requested run's scores and metrics by judgment key, to show each judgment against that run.
  const inRun = new Map<string, { runId: string; score: (typeof saved)[number] | null }>();
  const run = options.runId
    ? await prisma.runVideo.findFirst({
        where: { runId: options.runId, videoId, run: { projectId: video.projectId } },
        select: { frameSetId: true, run: { select: { id: true, pipeline: true } } },
      })
    : null;
  if (run) {
    const scores = await prisma.score.findMany({
      where: { runId: run.run.id, videoId, ...(options.itemId !== undefined ? { itemId: options.itemId } : {}) },
      select: scoreSelect,
    });
    const task = (await catalogFor(prisma, video.projectId)).taskOf(run.run.pipeline);
    for (const score of scores)
      inRun.set(judgmentKey(scoreTarget(run.run.pipeline, score, run.frameSetId, task)), {
        runId: run.run.id,
        score,
      });
    for (const metric of task.metrics.filter((m) => m.reviewed))
      inRun.set(judgmentKey(metricTarget(run.run.pipeline, videoId, "", metric.id)), {
        runId: run.run.id,
        score: null,
      });
  }
  // Blind review queues: only the reviewer's own judgments, without the judge's, until they submit.
  return redactVideoReviewsFor(prisma, actor.userId, videoId, {
    videoId,
    judgments: judgments.map((j) => {
      const shown = inRun.get(j.targetKey);
      const score = shown ? shown.score : (saved.find((s) => s.id === j.scoreId) ?? null);
      return {
        id: j.id,
        targetType: j.targetType,
        target: j.target,
        itemId: j.itemId,
        /** The run whose answer is judged, for tasks whose subject is one run's output (QA answers); '' otherwise. */
        subjectRunId: j.subjectRunId,
        scoreId: shown ? (shown.score?.id ?? null) : j.scoreId,
        runId: shown ? shown.runId : j.runId,
        judge: score
          ? {
              id: score.id,
              value: score.value,
              category: score.category,
              stepId: score.stepId,
              scopeIndex: score.scopeIndex,
            }
          : null,
        reviewer: reviewers.find((r) => r.id === j.reviewerId) ?? { id: j.reviewerId },
        value: j.value,
        note: j.note,
        reason: j.reason,
        acceptedJudge: j.acceptedJudge,
        version: j.version,
        updatedAt: j.updatedAt,
        history: j.history.map((h) => ({
          version: h.version,
          at: h.at,
          by: h.reviewerId,
          before: h.before,
          after: h.after,
        })),
      };
    }),
  });
}
