import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { ValidationError } from "../errors";
import { agreementReport } from "./report/agreement-report";
import { exportFileName } from "./export-file-name";
import { type AgreementQuery, type ReportFilter, resolveReportFilter, runCondition } from "./report-filter";
import type { TaskCatalogue } from "../task-modules/task-catalogue";
import { PRESENCE_TARGET_TYPE, type TaskDeclaration } from "../task-modules/task-declaration";
import { SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import { parseLabelSetReviewerId } from "../label-sets/label-set-reviewer";
import { runPickerLabels } from "../judge/runs/run-option-labels";
import { runEndpointOfRow } from "../run-records/run-name";
import {
  type AgreementInput,
  type AgreementItem,
  type AgreementReport,
  DEFAULT_AGREEMENT_OPTIONS,
  type ReviewerInfo,
  type RunInfo,
  type TargetType,
  type VideoJudgeValues,
  WORST_TARGET,
} from "./types";

/** Per-video metrics reviewers give their own value for (human_judgment target types), across tasks. */
const reviewedMetrics = (tasks: readonly TaskDeclaration[]) => [
  ...new Set(tasks.flatMap((t) => t.metrics.filter((m) => m.reviewed).map((m) => m.id))),
];

/** (task, graded target) pairs with a declared presence target; never empty, for SQL. */
function presencePairs(tasks: readonly TaskDeclaration[]): Prisma.Sql {
  const pairs = tasks.flatMap((t) => (t.presence?.of ?? []).map((target) => Prisma.sql`(${t.id}, ${target})`));
  return pairs.length ? Prisma.join(pairs) : Prisma.sql`(NULL, NULL)`;
}

/** (pipeline, step) pairs whose prompts make each task's per-video metrics; never empty, for SQL. */
function metricStepPairs(tasks: readonly TaskDeclaration[]): Prisma.Sql {
  const pairs = tasks.flatMap((t) => (t.metricSteps ?? []).map((step) => Prisma.sql`(${t.id}, ${step})`));
  return pairs.length ? Prisma.join(pairs) : Prisma.sql`(NULL, NULL)`;
}

/** The sweep's per-video values from the run's stored metrics (a metric with no row is unknown). */
function sweepValues(
  task: TaskDeclaration | undefined,
  metrics: Record<string, number> | null,
  worst: number | null,
  best: number | null,
): VideoJudgeValues {
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
  itemId: string;
  reviewerId: string;
  value: number;
  /** The run's value of the target: its score at the same scope, or its metric of the same id (null for presence targets). */
  judge: number | null;
  /** Presence targets: the run's highest score of the category over its scopes. */
  judgeScore: number | null;
  category: string;
  stepId: string | null;
  scopeIndex: number | null;
  templateHash: string | null;
  /** Every headline metric of the video in the run, for per-video targets (the threshold sweep). */
  videoMetrics: Record<string, number> | null;
  /** The highest and lowest judge score of the video in the run. */
  worst: number | null;
  best: number | null;
  pipeline: string;
  videoVersion: string | null;
  endpointId: string;
  model: string | null;
  itemGroup: string | null;
  /** The judged item's payload fields that declared groupings read (`itemField`), or null. */
  itemFields: Record<string, unknown> | null;
  dimensions: string[];
}

/** SQL: the judged item's payload fields the tasks' groupings read (`itemField`), as one object; NULL when none are declared. */
function itemFieldsSql(tasks: readonly TaskDeclaration[]): Prisma.Sql {
  const fields = [...new Set(tasks.flatMap((t) => t.groupings.flatMap((g) => (g.itemField ? [g.itemField] : []))))];
  if (fields.length === 0) return Prisma.sql`NULL::jsonb`;
  return Prisma.sql`CASE WHEN x."itemId" <> '' THEN jsonb_build_object(${Prisma.join(fields.map((f) => Prisma.sql`${f}::text, it."payload" -> ${f}::text`))}) END`;
}

/** A judged item's value of each declared grouping that reads the item (its group, or a payload field). */
function itemGroups(
  task: TaskDeclaration | undefined,
  row: Pick<JudgmentRow, "itemGroup" | "itemFields">,
): Record<string, string> | null {
  const groups: Record<string, string> = {};
  for (const g of task?.groupings ?? []) {
    if (g.ofItem && row.itemGroup !== null) groups[g.id] = row.itemGroup;
    const field = g.itemField ? row.itemFields?.[g.itemField] : undefined;
    if (typeof field === "string" && field !== "") groups[g.id] = field;
  }
  return Object.keys(groups).length ? groups : null;
}

/** The runs a scope reads, oldest first, with the endpoint's name and model at the time of the run. */
export async function scopeRuns(prisma: PrismaClient, projectId: string, runId: string | null): Promise<RunInfo[]> {
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, ...(runId ? { id: runId } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      pipeline: true,
      endpointId: true,
      endpointSnapshot: true,
      createdAt: true,
      endpoint: { select: { name: true, model: true } },
      ensemble: true,
    },
  });
  const labels = await runPickerLabels(
    prisma,
    projectId,
    runs.map((r) => r.id),
  );
  return runs.map((r) => {
    return {
      id: r.id,
      ...(labels.has(r.id) ? { label: labels.get(r.id)! } : {}),
      pipeline: r.pipeline,
      endpointId: r.endpointId,
      ...runEndpointOfRow(r),
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/** Reviewers by id, labelled by name (email when two share a name or the name is empty). */
export async function reviewerInfo(prisma: PrismaClient, ids: readonly string[]): Promise<ReviewerInfo[]> {
  if (ids.length === 0) return [];
  const users = await prisma.user.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true, name: true, email: true },
    orderBy: [{ name: "asc" }, { email: "asc" }],
  });
  const names = new Map<string, number>();
  for (const u of users) names.set(u.name, (names.get(u.name) ?? 0) + 1);
  const live = users.map((u) => ({
    id: u.id,
    label: u.name && names.get(u.name) === 1 ? u.name : `${u.name || "reviewer"} <${u.email}>`,
  }));
  // Label sets follow the live reviewers, labelled by their names (and annotator column).
  const labelled = ids.flatMap((id) => {
    const parsed = parseLabelSetReviewerId(id);
    return parsed ? [{ id, ...parsed }] : [];
  });
  if (labelled.length === 0) return live;
  const sets = await prisma.labelSet.findMany({
    where: { id: { in: [...new Set(labelled.map((l) => l.labelSetId))] } },
    select: { id: true, name: true },
  });
  const labelSets = labelled.flatMap((l) => {
    const set = sets.find((s) => s.id === l.labelSetId);
    if (!set) return [];
    return [
      {
        id: l.id,
        label: l.annotator ? `${set.name} · ${l.annotator}` : set.name,
        labelSet: { id: set.id, name: set.name, annotator: l.annotator },
      },
    ];
  });
  labelSets.sort((a, b) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id));
  return [...live, ...labelSets];
}

type LoadOptions = { independentOnly: boolean; includeImplied?: boolean };

/**
 * The judgments in scope (the scope's videos, not withdrawn), the accept-the-judge ones left out when only
 * independent ones count.
 */
function judgmentsInScope(scope: ReportFilter, options: LoadOptions): Prisma.Sql {
  return Prisma.sql`
    SELECT h."targetKey", h."targetType", h."task", h."target", h."videoId", h."itemId", h."stepId", h."scopeIndex", h."frameSetId", h."subjectRunId", h."reviewerId", h."value"
    FROM "human_judgment" h
    WHERE h."projectId" = ${scope.ctx.projectId} AND h."videoId" IN (${scope.matchingVideos}) AND NOT h."withdrawn"
      ${options.independentOnly ? Prisma.sql`AND NOT h."acceptedJudge"` : Prisma.empty}
      -- A score a presence-first queue filled with the absent value is one "absent" answer (compared through
      -- the presence target), not one more independent judgment per score: left out unless asked for.
      ${options.includeImplied ? Prisma.empty : Prisma.sql`AND h."origin" = 'typed'`}`;
}

/**
 * A presence judgment (present 1 / absent 0 for a whole video) is compared with every run of its task that
 * judged the video, through the run's highest score of the category (the report applies the threshold).
 */
function presenceCompared(tasks: readonly TaskDeclaration[]): Prisma.Sql {
  return Prisma.sql`
    SELECT j."targetKey", j."targetType", r."id" AS "runId", j."videoId", j."itemId", j."reviewerId", j."value", j."target", r."pipeline", r."endpointId",
           ps."judgeScore", ps."templateHash"
    FROM j
    JOIN runs r ON r."pipeline" = j."task"
    JOIN "run_video" rv ON rv."runId" = r."id" AND rv."videoId" = j."videoId"
    CROSS JOIN LATERAL (
      SELECT max(s."value") AS "judgeScore", string_agg(DISTINCT sr."templateHash", '+' ORDER BY sr."templateHash") AS "templateHash"
      FROM "score" s JOIN "step_result" sr ON sr."id" = s."stepResultId"
      WHERE s."runId" = r."id" AND s."videoId" = j."videoId" AND s."itemId" = '' AND s."category" = j."target"
    ) ps
    WHERE j."targetType" = ${PRESENCE_TARGET_TYPE} AND (j."task", j."target") IN (VALUES ${presencePairs(tasks)})`;
}

/**
 * The per-video values (metrics, worst and best score, prompt version) of each judged (run, video) with a
 * per-video target: looked up once per pair, not once per judgment row, because most judgments are of scores
 * and a LEFT JOIN LATERAL runs even when its ON is false; a grouped join would sort every score row instead.
 */
function perVideoValues(tasks: readonly TaskDeclaration[]): Prisma.Sql {
  return Prisma.sql`
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
      JOIN (VALUES ${metricStepPairs(tasks)}) AS ms("pipeline", "stepId") ON ms."stepId" = sr2."stepId"
      WHERE sr2."runId" = p."runId" AND sr2."videoId" = p."videoId" AND ms."pipeline" = p."pipeline"
    ) pv`;
}

/** Every judgment in scope with the judge's value of the same target in each run of its task that judged it. */
function judgmentRows(
  prisma: PrismaClient,
  scope: ReportFilter,
  registry: readonly TaskDeclaration[],
  options: LoadOptions,
) {
  const projectId = scope.ctx.projectId;
  const categoryCondition = scope.category
    ? Prisma.sql`AND (x."targetType" NOT IN (${SCORE_TARGET_TYPE}, ${PRESENCE_TARGET_TYPE}) OR x."category" = ${scope.category})`
    : Prisma.empty;
  // A judgment is about a target, not a run: it is compared with every run in scope of its task that
  // scored the same target (a score at the same step and scope, and frame set for frame scopes; a
  // per-subject metric of a video the run judged).
  return prisma.$queryRaw<JudgmentRow[]>`
    WITH j AS MATERIALIZED (${judgmentsInScope(scope, options)}
    ),
    runs AS MATERIALIZED (
      SELECT r."id", r."pipeline", r."endpointId" FROM "judge_run" r WHERE r."projectId" = ${projectId} ${runCondition(scope, Prisma.sql`r."id"`)}
    ),
    scored AS (
      SELECT j."targetKey", j."targetType", r."id" AS "runId", j."videoId", j."itemId", j."reviewerId", j."value", s."value" AS "judge",
             s."category", s."stepId", s."scopeIndex", sr."templateHash", r."pipeline", r."endpointId"
      FROM j
      JOIN runs r ON r."pipeline" = j."task"
      JOIN "score" s ON s."runId" = r."id" AND s."videoId" = j."videoId" AND s."stepId" = j."stepId" AND s."category" = j."target" AND s."itemId" = j."itemId"
        AND (j."itemId" <> '' OR s."scopeIndex" = j."scopeIndex")
      JOIN "step_result" sr ON sr."id" = s."stepResultId"
      WHERE j."targetType" = 'score'
        AND (j."frameSetId" = '' OR EXISTS (SELECT 1 FROM "run_video" rv WHERE rv."runId" = r."id" AND rv."videoId" = j."videoId" AND rv."frameSetId" = j."frameSetId"))
        -- A judgment of one run's answer (a QA answer) is compared with that run only.
        AND (j."subjectRunId" = '' OR j."subjectRunId" = r."id")
    ),
    outcomes AS MATERIALIZED (
      SELECT j."targetKey", j."targetType", r."id" AS "runId", j."videoId", j."itemId", j."reviewerId", j."value", j."target", r."pipeline", r."endpointId"
      FROM j
      JOIN runs r ON r."pipeline" = j."task"
      JOIN "run_video" rv ON rv."runId" = r."id" AND rv."videoId" = j."videoId"
      -- Only reviewed metrics have a judge value to compare with (presence targets are read off the scores below).
      WHERE j."targetType" <> 'score' AND j."targetType" = ANY(${reviewedMetrics(registry)}::text[])
    ),
    presence AS (${presenceCompared(registry)}
    ),
    pairs AS MATERIALIZED (SELECT DISTINCT o."runId", o."videoId", o."pipeline" FROM outcomes o),
    per_video AS (${perVideoValues(registry)}
    ),
    rated AS (
      SELECT sc."targetKey", sc."targetType", sc."runId", sc."videoId", sc."itemId", sc."reviewerId", sc."value", sc."judge",
             sc."category", sc."stepId", sc."scopeIndex", sc."templateHash", sc."pipeline", sc."endpointId",
             NULL::jsonb AS "videoMetrics", NULL::double precision AS "worst", NULL::double precision AS "best", NULL::text AS "videoVersion",
             NULL::double precision AS "judgeScore"
      FROM scored sc
      UNION ALL
      SELECT o."targetKey", o."targetType", o."runId", o."videoId", o."itemId", o."reviewerId", o."value",
             (SELECT m."value" FROM "run_metric" m WHERE m."runId" = o."runId" AND m."videoId" = o."videoId" AND m."itemId" = o."itemId" AND m."metric" = o."target") AS "judge",
             o."target" AS "category", NULL AS "stepId", NULL AS "scopeIndex", NULL AS "templateHash", o."pipeline", o."endpointId",
             pvv."metrics", pvv."worst", pvv."best", pvv."videoVersion", NULL::double precision AS "judgeScore"
      FROM outcomes o
      LEFT JOIN per_video pvv ON pvv."runId" = o."runId" AND pvv."videoId" = o."videoId"
      UNION ALL
      SELECT p."targetKey", p."targetType", p."runId", p."videoId", p."itemId", p."reviewerId", p."value", NULL::double precision AS "judge",
             p."target" AS "category", NULL AS "stepId", NULL AS "scopeIndex", p."templateHash", p."pipeline", p."endpointId",
             NULL::jsonb, NULL::double precision, NULL::double precision, NULL::text, p."judgeScore"
      FROM presence p
    )
    SELECT x.*, coalesce(it."model", v."model") AS "model", it."group" AS "itemGroup", ${itemFieldsSql(registry)} AS "itemFields", v."dimensions"
    FROM rated x
    JOIN "video" v ON v."id" = x."videoId"
    LEFT JOIN "item" it ON x."itemId" <> '' AND it."id" = x."itemId"
    WHERE TRUE ${categoryCondition}
    ORDER BY x."runId", x."videoId", x."targetKey", x."reviewerId"`;
}

/** The tasks of the scope's runs (every registered task when it has none), and how many judge items the scope holds. */
function scopeTasksAndCounts(prisma: PrismaClient, scope: ReportFilter, registry: readonly TaskDeclaration[]) {
  const projectId = scope.ctx.projectId;
  // For the report's declarations.
  const scopeTasks = prisma.judgeRun
    .findMany({
      where: { projectId, ...(scope.runId ? { id: scope.runId } : {}) },
      distinct: ["pipeline"],
      select: { pipeline: true },
    })
    .then((scopePipelines) => {
      const inScope = registry.filter((t) => scopePipelines.some((r) => r.pipeline === t.id));
      return inScope.length ? inScope : registry;
    });
  const scoreCategory = scope.category ? Prisma.sql`AND s."category" = ${scope.category}` : Prisma.empty;
  const countsQuery = scopeTasks.then(
    (tasks) => prisma.$queryRaw<{ videos: bigint; scores: bigint; outcomes: bigint }[]>`
    WITH m AS (${scope.matchingVideos})
    SELECT (SELECT count(*) FROM m) AS "videos",
           (SELECT count(*) FROM "score" s WHERE s."videoId" IN (SELECT "id" FROM m) ${runCondition(scope, Prisma.sql`s."runId"`)} ${scoreCategory}) AS "scores",
           (SELECT count(*) FROM "run_metric" rm JOIN "judge_run" r ON r."id" = rm."runId"
              WHERE r."projectId" = ${projectId} AND rm."videoId" IN (SELECT "id" FROM m) AND rm."itemId" = '' AND rm."metric" = ANY(${reviewedMetrics(tasks)}::text[])
              ${runCondition(scope, Prisma.sql`rm."runId"`)}) AS "outcomes"`,
  );
  return { scopeTasks, countsQuery };
}

/** The judgment rows grouped into agreement items, one per (run, target), each with its reviewers' ratings. */
function agreementItems(
  rows: readonly JudgmentRow[],
  registry: readonly TaskDeclaration[],
  runs: readonly { id: string; model: string | null }[],
): { items: AgreementItem[]; reviewerIds: Set<string> } {
  const taskById = new Map(registry.map((t) => [t.id, t]));
  const runModel = new Map(runs.map((r) => [r.id, r.model]));
  const items: AgreementItem[] = [];
  const byKey = new Map<string, AgreementItem>();
  const reviewerIds = new Set<string>();
  for (const row of rows) {
    reviewerIds.add(row.reviewerId);
    const key = `${row.runId}|${row.targetKey}`;
    let item = byKey.get(key);
    if (!item) {
      const targetType = row.targetType as TargetType;
      const task = taskById.get(row.pipeline);
      const groups = itemGroups(task, row);
      item = {
        taskId: row.pipeline,
        key,
        targetKey: row.targetKey,
        targetType,
        runId: row.runId,
        videoId: row.videoId,
        category: row.category,
        stepId: row.stepId,
        scopeIndex: row.scopeIndex,
        judge: row.judge,
        ...(targetType === PRESENCE_TARGET_TYPE ? { judgeScore: row.judgeScore } : {}),
        ratings: [],
        dimensions: row.dimensions,
        // A run's answer is by the run's model (the evaluated endpoint), not the video's generator.
        model: task?.subjectPerRun ? (runModel.get(row.runId) ?? row.model) : row.model,
        ...(groups ? { groups } : {}),
        endpointId: row.endpointId,
        promptVersion:
          targetType === SCORE_TARGET_TYPE || targetType === PRESENCE_TARGET_TYPE ? row.templateHash : row.videoVersion,
        ...(task?.verdict && targetType === task.verdict.metricId
          ? { videoValues: sweepValues(task, row.videoMetrics, row.worst, row.best) }
          : {}),
      };
      byKey.set(key, item);
      items.push(item);
    }
    item.ratings.push({ reviewerId: row.reviewerId, value: row.value });
  }

  return { items, reviewerIds };
}

/**
 * The reviewed targets of the scope's videos, with the judge's value and every reviewer's current
 * value. Only targets someone reviewed are loaded (unreviewed ones enter no statistic; they are
 * counted in SQL), so a 50,000-video project with a few thousand judgments stays small in memory.
 */
export async function loadAgreementInput(
  prisma: PrismaClient,
  scope: ReportFilter,
  registry: readonly TaskDeclaration[] = scope.ctx.catalogue.tasks,
  options: { independentOnly: boolean; includeImplied?: boolean } = { independentOnly: true },
): Promise<AgreementInput> {
  const projectId = scope.ctx.projectId;
  const rowsQuery = judgmentRows(prisma, scope, registry, options);
  const { scopeTasks, countsQuery } = scopeTasksAndCounts(prisma, scope, registry);
  // The counts scan every score of the scope (~1M in a 50,000-video project): on their own connection,
  // beside the judgments' query, not after it (a read-only report, no transaction to share).
  const [rows, runs, tasks, [counts]] = await Promise.all([
    rowsQuery,
    scopeRuns(prisma, projectId, scope.runId),
    scopeTasks,
    countsQuery,
  ]);

  const { items, reviewerIds } = agreementItems(rows, registry, runs);

  // The adjudicated gold of the reviewed targets, an annotator apart from reviewers and label sets.
  const targetKeys = [...new Set(items.map((i) => i.targetKey))];
  const [golds, reviewers] = await Promise.all([
    targetKeys.length
      ? prisma.goldJudgment.findMany({
          where: { projectId, targetKey: { in: targetKeys } },
          select: { targetKey: true, value: true },
        })
      : null,
    reviewerInfo(prisma, [...reviewerIds]),
  ]);
  if (golds) {
    const gold = new Map(golds.map((g) => [g.targetKey, g.value]));
    for (const item of items) item.gold = gold.get(item.targetKey) ?? null;
  }

  return {
    items,
    tasks,
    reviewers,
    runs,
    videoCount: Number(counts!.videos),
    judgeItemCount: Number(counts!.scores) + Number(counts!.outcomes),
  };
}

/** The agreement report of a project for a filter; every member may read it (`export.read`). */
export async function projectAgreement(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  query: AgreementQuery,
  catalogue?: TaskCatalogue,
): Promise<AgreementReport> {
  const { actor, projectId } = access;
  const {
    threshold,
    overallThreshold,
    presenceThreshold,
    independent,
    implied,
    truth,
    format: _format,
    ...filter
  } = query;
  const scope = await resolveReportFilter(prisma, projectId, filter, actor.userId, catalogue);
  const independentOnly = independent === "only";
  const impliedIncluded = implied === "include";
  const input = await loadAgreementInput(prisma, scope, scope.ctx.catalogue.tasks, {
    independentOnly,
    includeImplied: impliedIncluded,
  });
  if (presenceThreshold !== undefined) {
    for (const task of input.tasks ?? []) {
      const graded = task.presence && task.targets.find((t) => t.id === task.presence!.of[0]);
      if (
        graded?.scale.kind === "numeric" &&
        (presenceThreshold < graded.scale.min || presenceThreshold > graded.scale.max)
      ) {
        throw new ValidationError(
          `presenceThreshold: ${presenceThreshold} is outside ${task.label}'s graded scale ${graded.scale.min}–${graded.scale.max}.`,
        );
      }
    }
  }
  return {
    ...agreementReport(input, {
      ...DEFAULT_AGREEMENT_OPTIONS,
      threshold,
      overallThreshold,
      truth,
      ...(presenceThreshold !== undefined ? { presenceThreshold } : {}),
    }),
    independentOnly,
    impliedIncluded,
  };
}

/** The report's download name, as the agreement page's link names it (the video filter's fields, not the thresholds). */
export async function agreementFileName(
  prisma: PrismaClient,
  projectId: string,
  query: AgreementQuery,
  extension: "csv" | "json",
): Promise<string> {
  const {
    threshold: _t,
    overallThreshold: _o,
    presenceThreshold: _p,
    independent: _i,
    implied: _m,
    truth: _r,
    format: _f,
    ...filter
  } = query;
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } });
  return exportFileName({
    project: project.name,
    what: "agreement",
    filter: filter as Record<string, string | number | undefined>,
    date: new Date(),
    extension,
  });
}
