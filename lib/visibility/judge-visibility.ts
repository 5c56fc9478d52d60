/**
 * Who may see the judge's values of a video, and the redaction of every payload that carries them.
 *
 * Blind review: a reviewer who is reviewing a blind queue (see blindVideoIdsFor) must not see the judge's
 * values (scores, metrics, verdict, summary, the scoring steps' outputs and calls, the values in a task's
 * run results) nor other reviewers' values for any video of that queue, anywhere, until they submit it. This is enforced on
 * the server: every read that returns judge values for a video asks here and redacts with the helpers
 * below (video scores, video reviews, the run page, the call inspector, the video page's runs, the compare
 * page, the tasks' run results through `redactResultsFor`, the video list, the agreement scope and
 * exports and a run's leaderboard through `blindVideoIdsFor`).
 *
 * Which step outputs carry judge values is read from the task declarations (`metricSteps`), never listed
 * here, and how a task's run results are redacted is the task's own `redactResult`. This module reads the
 * review_queue_assignment table itself and imports no queue logic, so every domain (videos, reviews, judge,
 * agreement, queues) can depend on it without a cycle.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { catalogFor } from "../task-modules/task-catalogue";
import type { TaskDeclaration } from "../task-modules/task-declaration";

/**
 * The videos (of `videoIds`, or all) blind to the user: every video of a live blind queue they are reviewing
 * that they have not submitted there. They are reviewing a queue from their first claim in it for as long as
 * they hold an open claim in it or it still has items they could be given (needing reviewers, not submitted
 * by them). Blind is per queue, not per item: holding one item must not let them open the next item's video
 * page and see its scores. A video they submitted is revealed, unless another of its items in such a queue
 * (a second caption, another blind queue) is still unsubmitted by them.
 */
export async function blindVideoIdsFor(
  prisma: PrismaClient,
  userId: string,
  videoIds?: readonly string[],
): Promise<Set<string>> {
  if (videoIds && videoIds.length === 0) return new Set();
  const only = videoIds ? [...videoIds] : null;
  const rows = await prisma.$queryRaw<{ videoId: string }[]>`
    WITH reviewing AS (
      SELECT q.id
      FROM review_queue q
      WHERE q.blind AND q."archivedAt" IS NULL
        AND EXISTS (SELECT 1 FROM review_queue_assignment a WHERE a."queueId" = q.id AND a."reviewerId" = ${userId})
        AND (
          EXISTS (SELECT 1 FROM review_queue_assignment a WHERE a."queueId" = q.id AND a."reviewerId" = ${userId} AND a.status = 'claimed')
          OR EXISTS (
            SELECT 1 FROM review_queue_item i
            WHERE i."queueId" = q.id AND i."doneCount" < q."reviewersPerItem"
              AND NOT EXISTS (SELECT 1 FROM review_queue_assignment a WHERE a."itemId" = i.id AND a."reviewerId" = ${userId} AND a.status = 'done')
          )
        )
    )
    SELECT DISTINCT i."videoId"
    FROM review_queue_item i
    JOIN reviewing r ON r.id = i."queueId"
    WHERE NOT EXISTS (SELECT 1 FROM review_queue_assignment a WHERE a."itemId" = i.id AND a."reviewerId" = ${userId} AND a.status = 'done')
      AND (${only}::text[] IS NULL OR i."videoId" = ANY(${only}::text[]))`;
  return new Set(rows.map((row) => row.videoId));
}

export async function isBlindFor(prisma: PrismaClient, userId: string, videoId: string): Promise<boolean> {
  return (await blindVideoIdsFor(prisma, userId, [videoId])).has(videoId);
}

/**
 * The steps of a pipeline whose outputs carry the judge's values, as its task declares them. Null means
 * every step: a pipeline no task declares, or a task that names no scoring steps, has all its outputs
 * withheld, so a new task stays hidden from blind reviewers until it says which steps score.
 */
export function judgeValueSteps(
  pipeline: string | null | undefined,
  tasks: readonly TaskDeclaration[],
): ReadonlySet<string> | null {
  const steps = tasks.find((task) => task.id === pipeline)?.metricSteps;
  return steps && steps.length > 0 ? new Set(steps) : null;
}

function carriesJudgeValues(scoringSteps: ReadonlySet<string> | null, stepId: string): boolean {
  return scoringSteps === null || scoringSteps.has(stepId);
}

interface StepLike {
  stepId: string;
  output: unknown;
  scores: readonly unknown[];
}

/**
 * What a scoring step keeps for a blind reviewer: which step it is, where, its prompt template and how
 * it went. Every other field (output, raw answer, error, calls, scores, and any field added later) is
 * emptied, so nothing new reaches a blind reviewer by default.
 */
const STEP_FIELDS_WITHOUT_JUDGE_VALUES: ReadonlySet<string> = new Set([
  "id",
  "runId",
  "videoId",
  "itemId",
  "stepId",
  "scopeIndex",
  "status",
  "templateId",
  "templateHash",
  "attempts",
  "startedAt",
  "finishedAt",
]);

/**
 * Steps as a blind reviewer may see them: no step keeps its scores; a scoring step (see judgeValueSteps)
 * keeps only the fields above, with every other one null (lists empty): its output, raw answer, error (a
 * validation error quotes the judge's answer) and LLM calls (raw answers, repair requests). The other
 * steps (e.g. knowledge graphs) stay whole.
 */
export function withheldSteps<S extends StepLike>(steps: readonly S[], scoringSteps: ReadonlySet<string> | null): S[] {
  return steps.map((step) => {
    if (!carriesJudgeValues(scoringSteps, step.stepId)) return { ...step, scores: [] };
    return Object.fromEntries(
      Object.entries(step).map(([field, value]) => [
        field,
        STEP_FIELDS_WITHOUT_JUDGE_VALUES.has(field) ? value : Array.isArray(value) ? [] : null,
      ]),
    ) as S;
  });
}

interface VideoScoresLike {
  run: { pipeline: string } | null;
  summary: unknown;
  steps: StepLike[];
}

/**
 * GET /videos/:id/scores for this user: unchanged with `blind: false`, or without the judge's
 * summary, scores and scoring-step outputs and with `blind: true`.
 */
export async function redactVideoScoresFor<T extends VideoScoresLike>(
  prisma: PrismaClient,
  userId: string,
  videoId: string,
  payload: T,
): Promise<T & { blind: boolean }> {
  if (!(await isBlindFor(prisma, userId, videoId))) return { ...payload, blind: false };
  const video = await prisma.video.findUnique({ where: { id: videoId }, select: { projectId: true } });
  const tasks = video ? (await catalogFor(prisma, video.projectId)).tasks : [];
  return {
    ...payload,
    blind: true,
    summary: null,
    steps: withheldSteps(payload.steps, judgeValueSteps(payload.run?.pipeline, tasks)),
  };
}

interface VideoReviewsLike {
  judgments: { reviewer: { id: string }; judge: unknown }[];
}

/**
 * GET /videos/:id/reviews for this user: unchanged with `blind: false`, or only the user's own
 * judgments, without the judge's values, and `blind: true`.
 */
export async function redactVideoReviewsFor<T extends VideoReviewsLike>(
  prisma: PrismaClient,
  userId: string,
  videoId: string,
  payload: T,
): Promise<T & { blind: boolean }> {
  if (!(await isBlindFor(prisma, userId, videoId))) return { ...payload, blind: false };
  return {
    ...payload,
    blind: true,
    judgments: payload.judgments.filter((j) => j.reviewer.id === userId).map((j) => ({ ...j, judge: null })),
  };
}

/**
 * The call inspector's steps of one video in one run for this user: whole, or (blind) with the scoring
 * steps' outputs, errors and calls withheld (see withheldSteps).
 */
export async function redactInspectedStepsFor<S extends StepLike>(
  prisma: PrismaClient,
  userId: string,
  videoId: string,
  pipeline: string,
  steps: readonly S[],
  tasks: readonly TaskDeclaration[],
): Promise<{ blind: boolean; steps: S[] }> {
  if (!(await isBlindFor(prisma, userId, videoId))) return { blind: false, steps: [...steps] };
  return { blind: true, steps: withheldSteps(steps, judgeValueSteps(pipeline, tasks)) };
}

/** Rows of a run's videos (the run page) for this user: a blind video keeps no summary; each row says whether it is blind. */
export async function redactRunVideosFor<R extends { videoId: string; summary: unknown }>(
  prisma: PrismaClient,
  userId: string,
  rows: readonly R[],
): Promise<(R & { blind: boolean })[]> {
  const blind = await blindVideoIdsFor(
    prisma,
    userId,
    rows.map((row) => row.videoId),
  );
  return rows.map((row) =>
    blind.has(row.videoId) ? { ...row, summary: null, blind: true } : { ...row, blind: false },
  );
}

/** A video's headline metrics in one run (the video page's runs): a blind video's are all unknown. */
export function withheldMetricScores<
  R extends { scores: Record<string, unknown>; overall: number | null; verdict: boolean | null },
>(row: R): R {
  return {
    ...row,
    scores: Object.fromEntries(Object.keys(row.scores).map((metric) => [metric, null])),
    overall: null,
    verdict: null,
  };
}

/** A sample of the compare page for a blind video: neither the judge's outcome nor the reviewers' consensus. */
export function withheldCompareSample<
  S extends { judge: unknown; reviewers: { verdict: number | null; count: number } },
>(sample: S): S {
  return { ...sample, judge: null, reviewers: { verdict: null, count: 0 } };
}

/**
 * A run result as a blind reviewer may see it: the result's task says how (its module's `redactResult`,
 * handed in by the task's own reads so this layer reaches no task).
 */
export function withheldResult<R>(redact: (result: R) => unknown, result: R): R {
  return redact(result) as R;
}

/**
 * Run results of one task for this user, each marked `blind` (and withheld by the task's `redact`) when
 * its video, `videoIdOf(result)`, is blind to them.
 */
export async function redactResultsFor<R>(
  prisma: PrismaClient,
  userId: string,
  redact: (result: R) => unknown,
  results: readonly R[],
  videoIdOf: (result: R) => string,
): Promise<(R & { blind: boolean })[]> {
  const blind = await blindVideoIdsFor(prisma, userId, [...new Set(results.map(videoIdOf))]);
  return results.map((result) =>
    blind.has(videoIdOf(result)) ? { ...withheldResult(redact, result), blind: true } : { ...result, blind: false },
  );
}
