import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { agreementReport } from "./report";
import { type AgreementQuery, type AgreementScope, resolveAgreementScope, runCondition } from "./scope";
import { TASKS } from "../tasks/registry";
import { type AgreementInput, type AgreementItem, type AgreementReport, DEFAULT_AGREEMENT_OPTIONS, type ReviewerInfo, type RunInfo, SWEEP_METRICS, type TargetType, type VideoJudgeValues } from "./types";

const SCORING_STEPS = ["static_hallucination", "dynamic_hallucination", "inconsistency"];
/** Per-video metrics reviewers give their own value for (human_judgment target types), across tasks. */
const REVIEWED_METRICS = [...new Set(TASKS.flatMap((t) => t.metrics.filter((m) => m.reviewed).map((m) => m.id)))];

/** The sweep's per-video values from the run's stored metrics (a metric with no row is unknown). */
function sweepValues(metrics: Record<string, number> | null, worst: number | null): VideoJudgeValues {
  return Object.fromEntries(SWEEP_METRICS.map((metric) => [metric, metric === "worst" ? worst : (metrics?.[metric] ?? null)])) as unknown as VideoJudgeValues;
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
  metricValue: number | null;
  /** Every headline metric of the video in the run, for verdict targets (the threshold sweep). */
  videoMetrics: Record<string, number> | null;
  worst: number | null;
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
export async function loadAgreementInput(prisma: PrismaClient, scope: AgreementScope): Promise<AgreementInput> {
  const projectId = scope.ctx.projectId;
  const categoryCondition = scope.category ? Prisma.sql`AND (h."targetType" <> 'score' OR s."category" = ${scope.category})` : Prisma.empty;
  const rows = await prisma.$queryRaw<JudgmentRow[]>`
    SELECT h."targetKey", h."targetType", h."runId", h."videoId", h."reviewerId", h."value", h."judgeValue",
           s."category", s."stepId", s."scopeIndex", s."value" AS "scoreValue", sr."templateHash",
           jm."value" AS "metricValue", vm."metrics" AS "videoMetrics", w."worst", pv."videoVersion",
           r."endpointId", v."model", v."dimensions"
    FROM "human_judgment" h
    JOIN "video" v ON v."id" = h."videoId"
    JOIN "judge_run" r ON r."id" = h."runId"
    LEFT JOIN "score" s ON s."id" = h."scoreId"
    LEFT JOIN "step_result" sr ON sr."id" = s."stepResultId"
    LEFT JOIN "run_metric" jm ON h."targetType" <> 'score' AND jm."runId" = h."runId" AND jm."videoId" = h."videoId" AND jm."itemId" = '' AND jm."metric" = h."targetType"
    LEFT JOIN LATERAL (
      SELECT jsonb_object_agg(m."metric", m."value") AS "metrics" FROM "run_metric" m WHERE m."runId" = h."runId" AND m."videoId" = h."videoId" AND m."itemId" = ''
    ) vm ON h."targetType" = 'verdict'
    LEFT JOIN LATERAL (
      SELECT max(s2."value") AS "worst" FROM "score" s2 WHERE s2."runId" = h."runId" AND s2."videoId" = h."videoId"
    ) w ON h."targetType" = 'verdict'
    LEFT JOIN LATERAL (
      SELECT string_agg(DISTINCT sr2."templateHash", '+' ORDER BY sr2."templateHash") AS "videoVersion"
      FROM "step_result" sr2
      WHERE sr2."runId" = h."runId" AND sr2."videoId" = h."videoId" AND sr2."stepId" IN (${Prisma.join(SCORING_STEPS)})
    ) pv ON h."targetType" <> 'score'
    WHERE h."projectId" = ${projectId} ${runCondition(scope, Prisma.sql`h."runId"`)} ${categoryCondition}
      AND h."videoId" IN (${scope.matchingVideos})
    ORDER BY h."runId", h."videoId", h."targetKey", h."reviewerId"`;

  const items: AgreementItem[] = [];
  const byKey = new Map<string, AgreementItem>();
  const reviewerIds = new Set<string>();
  for (const row of rows) {
    reviewerIds.add(row.reviewerId);
    let item = byKey.get(row.targetKey);
    if (!item) {
      const targetType = row.targetType as TargetType;
      // A per-video target is judged against the run's metric of the same id (a verdict stored as 1/0).
      const judge = targetType === "score" ? (row.scoreValue ?? row.judgeValue) : (row.metricValue ?? row.judgeValue);
      item = {
        key: row.targetKey,
        targetType,
        runId: row.runId,
        videoId: row.videoId,
        category: targetType === "score" ? (row.category ?? "score") : targetType,
        stepId: row.stepId,
        scopeIndex: row.scopeIndex,
        judge,
        ratings: [],
        dimensions: row.dimensions,
        model: row.model,
        endpointId: row.endpointId,
        promptVersion: targetType === "score" ? row.templateHash : row.videoVersion,
        ...(targetType === "verdict" ? { videoValues: sweepValues(row.videoMetrics, row.worst) } : {}),
      };
      byKey.set(row.targetKey, item);
      items.push(item);
    }
    item.ratings.push({ reviewerId: row.reviewerId, value: row.value });
  }

  const scoreCategory = scope.category ? Prisma.sql`AND s."category" = ${scope.category}` : Prisma.empty;
  const [counts] = await prisma.$queryRaw<{ videos: bigint; scores: bigint; outcomes: bigint }[]>`
    WITH m AS (${scope.matchingVideos})
    SELECT (SELECT count(*) FROM m) AS "videos",
           (SELECT count(*) FROM "score" s WHERE s."videoId" IN (SELECT "id" FROM m) ${runCondition(scope, Prisma.sql`s."runId"`)} ${scoreCategory}) AS "scores",
           (SELECT count(*) FROM "run_metric" rm JOIN "judge_run" r ON r."id" = rm."runId"
              WHERE r."projectId" = ${projectId} AND rm."videoId" IN (SELECT "id" FROM m) AND rm."itemId" = '' AND rm."metric" = ANY(${REVIEWED_METRICS}::text[])
              ${runCondition(scope, Prisma.sql`rm."runId"`)}) AS "outcomes"`;

  return {
    items,
    reviewers: await reviewerInfo(prisma, [...reviewerIds]),
    runs: await scopeRuns(prisma, projectId, scope.runId),
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
