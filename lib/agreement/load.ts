import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { agreementReport } from "./report";
import { type AgreementQuery, type AgreementScope, resolveAgreementScope, runCondition } from "./scope";
import { TASKS } from "../tasks/registry";
import type { TaskDeclaration } from "../tasks/task-declaration";
import { SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import { type AgreementInput, type AgreementItem, type AgreementReport, DEFAULT_AGREEMENT_OPTIONS, type ReviewerInfo, type RunInfo, type TargetType, type VideoJudgeValues, WORST_TARGET } from "./types";

/** Per-video metrics reviewers give their own value for (human_judgment target types), across tasks. */
const reviewedMetrics = (tasks: readonly TaskDeclaration[]) => [...new Set(tasks.flatMap((t) => t.metrics.filter((m) => m.reviewed).map((m) => m.id)))];

/** (pipeline, step) pairs whose prompts make each task's per-video metrics; never empty, for SQL. */
function metricStepPairs(tasks: readonly TaskDeclaration[]): Prisma.Sql {
  const pairs = tasks.flatMap((t) => (t.metricSteps ?? []).map((step) => Prisma.sql`(${t.id}, ${step})`));
  return pairs.length ? Prisma.join(pairs) : Prisma.sql`(NULL, NULL)`;
}

/** The sweep's per-video values from the run's stored metrics (a metric with no row is unknown). */
function sweepValues(task: TaskDeclaration | undefined, metrics: Record<string, number> | null, worst: number | null, best: number | null): VideoJudgeValues {
  const values: VideoJudgeValues = {};
  if (!task) return values;
  for (const metric of task.metrics) if (metric.sweep) values[metric.id] = metrics?.[metric.id] ?? null;
  if (task.sweepWorstTarget) values[WORST_TARGET] = task.targets[0]?.higherIsBetter ? best : worst;
  return values;
}

interface JudgmentRow {
  targetKey: string;
  targetType: string;
  runId: string;
  videoId: string;
  reviewerId: string;
  value: number;
  judgeValue: number | null;
  category: string | null;
  stepId: string | null;
  scopeIndex: number | null;
  scoreValue: number | null;
  templateHash: string | null;
  /** The run's metric of the target's id (verdict, overall: the judge's per-video value), for non-score targets. */
  /** Every headline metric of the video in the run, for per-video targets (the threshold sweep). */
  videoMetrics: Record<string, number> | null;
  /** The highest and lowest judge score of the video in the run. */
  worst: number | null;
  best: number | null;
  pipeline: string;
  videoVersion: string | null;
  endpointId: string;
  model: string | null;
  dimensions: string[];
}

/** The runs a scope reads, oldest first, with the endpoint's name and model at the time of the run. */
export async function scopeRuns(prisma: PrismaClient, projectId: string, runId: string | null): Promise<RunInfo[]> {
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, ...(runId ? { id: runId } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, endpointId: true, endpointSnapshot: true, createdAt: true, endpoint: { select: { name: true, model: true } } },
  });
  return runs.map((r) => {
    const snapshot = (r.endpointSnapshot ?? {}) as { name?: unknown; model?: unknown };
    return {
      id: r.id,
      endpointId: r.endpointId,
      endpointName: typeof snapshot.name === "string" ? snapshot.name : r.endpoint.name,
      model: typeof snapshot.model === "string" ? snapshot.model : r.endpoint.model,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/** Reviewers by id, labelled by name (email when two share a name or the name is empty). */
export async function reviewerInfo(prisma: PrismaClient, ids: readonly string[]): Promise<ReviewerInfo[]> {
  if (ids.length === 0) return [];
  const users = await prisma.user.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true, email: true }, orderBy: [{ name: "asc" }, { email: "asc" }] });
  const names = new Map<string, number>();
  for (const u of users) names.set(u.name, (names.get(u.name) ?? 0) + 1);
  return users.map((u) => ({ id: u.id, label: u.name && names.get(u.name) === 1 ? u.name : `${u.name || "reviewer"} <${u.email}>` }));
}

/**
 * The reviewed targets of the scope's videos, with the judge's value and every reviewer's current
 * value. Only targets someone reviewed are loaded (unreviewed ones enter no statistic; they are
 * counted in SQL), so a 50,000-video project with a few thousand judgments stays small in memory.
 */
export async function loadAgreementInput(prisma: PrismaClient, scope: AgreementScope, registry: readonly TaskDeclaration[] = TASKS): Promise<AgreementInput> {
  const projectId = scope.ctx.projectId;
  const categoryCondition = scope.category ? Prisma.sql`AND (h."targetType" <> 'score' OR s."category" = ${scope.category})` : Prisma.empty;
  // The per-video values (metrics, worst score, prompt version) are looked up once per judged (run,
  // video) with a per-video target, not once per judgment row: most judgments are of scores, and
  // the per-row lookups (a LEFT JOIN LATERAL runs even when its ON is false) ran three subqueries
  // for each of them. Grouped joins instead sort ~125k score rows: slower than per-pair lookups.
  const rows = await prisma.$queryRaw<JudgmentRow[]>`
    WITH j AS MATERIALIZED (
      SELECT h."targetKey", h."targetType", h."runId", h."videoId", h."reviewerId", h."value", h."judgeValue", h."scoreId"
      FROM "human_judgment" h
      WHERE h."projectId" = ${projectId} ${runCondition(scope, Prisma.sql`h."runId"`)}
        AND h."videoId" IN (${scope.matchingVideos})
    ),
    pairs AS MATERIALIZED (
      SELECT DISTINCT j."runId", j."videoId", r."pipeline" FROM j JOIN "judge_run" r ON r."id" = j."runId" WHERE j."targetType" <> 'score'
    ),
    per_video AS (
      SELECT p."runId", p."videoId", vm."metrics", w."worst", w."best", pv."videoVersion"
      FROM pairs p
      CROSS JOIN LATERAL (
        SELECT jsonb_object_agg(m."metric", m."value") AS "metrics" FROM "run_metric" m WHERE m."runId" = p."runId" AND m."videoId" = p."videoId" AND m."itemId" = ''
      ) vm
      CROSS JOIN LATERAL (
        SELECT max(s2."value") AS "worst", min(s2."value") AS "best" FROM "score" s2 WHERE s2."runId" = p."runId" AND s2."videoId" = p."videoId"
      ) w
      CROSS JOIN LATERAL (
        SELECT string_agg(DISTINCT sr2."templateHash", '+' ORDER BY sr2."templateHash") AS "videoVersion"
        FROM "step_result" sr2
        JOIN (VALUES ${metricStepPairs(registry)}) AS ms("pipeline", "stepId") ON ms."stepId" = sr2."stepId"
        WHERE sr2."runId" = p."runId" AND sr2."videoId" = p."videoId" AND ms."pipeline" = p."pipeline"
      ) pv
    )
    SELECT h."targetKey", h."targetType", h."runId", h."videoId", h."reviewerId", h."value", h."judgeValue",
           s."category", s."stepId", s."scopeIndex", s."value" AS "scoreValue", sr."templateHash",
           pvv."metrics" AS "videoMetrics", pvv."worst", pvv."best", pvv."videoVersion",
           r."endpointId", r."pipeline", v."model", v."dimensions"
    FROM j h
    JOIN "video" v ON v."id" = h."videoId"
    JOIN "judge_run" r ON r."id" = h."runId"
    LEFT JOIN "score" s ON s."id" = h."scoreId"
    LEFT JOIN "step_result" sr ON sr."id" = s."stepResultId"
    LEFT JOIN per_video pvv ON h."targetType" <> 'score' AND pvv."runId" = h."runId" AND pvv."videoId" = h."videoId"
    WHERE TRUE ${categoryCondition}
    ORDER BY h."runId", h."videoId", h."targetKey", h."reviewerId"`;

  const taskById = new Map(registry.map((t) => [t.id, t]));
  const items: AgreementItem[] = [];
  const byKey = new Map<string, AgreementItem>();
  const reviewerIds = new Set<string>();
  for (const row of rows) {
    reviewerIds.add(row.reviewerId);
    let item = byKey.get(row.targetKey);
    if (!item) {
      const targetType = row.targetType as TargetType;
      const task = taskById.get(row.pipeline);
      // A per-video target is judged against the run's metric of the same id (a verdict stored as 1/0).
      const judge = targetType === SCORE_TARGET_TYPE ? (row.scoreValue ?? row.judgeValue) : (row.videoMetrics?.[targetType] ?? row.judgeValue);
      item = {
        taskId: row.pipeline,
        key: row.targetKey,
        targetType,
        runId: row.runId,
        videoId: row.videoId,
        category: targetType === SCORE_TARGET_TYPE ? (row.category ?? SCORE_TARGET_TYPE) : targetType,
        stepId: row.stepId,
        scopeIndex: row.scopeIndex,
        judge,
        ratings: [],
        dimensions: row.dimensions,
        model: row.model,
        endpointId: row.endpointId,
        promptVersion: targetType === SCORE_TARGET_TYPE ? row.templateHash : row.videoVersion,
        ...(task?.verdict && targetType === task.verdict.metricId ? { videoValues: sweepValues(task, row.videoMetrics, row.worst, row.best) } : {}),
      };
      byKey.set(row.targetKey, item);
      items.push(item);
    }
    item.ratings.push({ reviewerId: row.reviewerId, value: row.value });
  }

  // The tasks of the scope's runs (every registered task when it has none), for the report's declarations.
  const scopePipelines = await prisma.judgeRun.findMany({ where: { projectId, ...(scope.runId ? { id: scope.runId } : {}) }, distinct: ["pipeline"], select: { pipeline: true } });
  const inScope = registry.filter((t) => scopePipelines.some((r) => r.pipeline === t.id));
  const tasks = inScope.length ? inScope : registry;

  const scoreCategory = scope.category ? Prisma.sql`AND s."category" = ${scope.category}` : Prisma.empty;
  const [counts] = await prisma.$queryRaw<{ videos: bigint; scores: bigint; outcomes: bigint }[]>`
    WITH m AS (${scope.matchingVideos})
    SELECT (SELECT count(*) FROM m) AS "videos",
           (SELECT count(*) FROM "score" s WHERE s."videoId" IN (SELECT "id" FROM m) ${runCondition(scope, Prisma.sql`s."runId"`)} ${scoreCategory}) AS "scores",
           (SELECT count(*) FROM "run_metric" rm JOIN "judge_run" r ON r."id" = rm."runId"
              WHERE r."projectId" = ${projectId} AND rm."videoId" IN (SELECT "id" FROM m) AND rm."itemId" = '' AND rm."metric" = ANY(${reviewedMetrics(tasks)}::text[])
              ${runCondition(scope, Prisma.sql`rm."runId"`)}) AS "outcomes"`;

  const runs = await scopeRuns(prisma, projectId, scope.runId);
  return {
    items,
    tasks,
    reviewers: await reviewerInfo(prisma, [...reviewerIds]),
    runs,
    videoCount: Number(counts!.videos),
    judgeItemCount: Number(counts!.scores) + Number(counts!.outcomes),
  };
}

/** The agreement report of a project for a filter; every member may read it (`export.read`). */
export async function projectAgreement(prisma: PrismaClient, actor: Actor, projectId: string, query: AgreementQuery): Promise<AgreementReport> {
  await requireProjectAccess(prisma, actor, projectId, "export.read");
  const { threshold, overallThreshold, format: _format, ...filter } = query;
  const scope = await resolveAgreementScope(prisma, projectId, filter, actor.userId);
  const input = await loadAgreementInput(prisma, scope);
  return agreementReport(input, { ...DEFAULT_AGREEMENT_OPTIONS, threshold, overallThreshold });
}
