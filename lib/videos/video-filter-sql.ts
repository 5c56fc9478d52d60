import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { NotFoundError } from "../errors";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import type { TaskCatalogue } from "../task-modules/task-catalogue";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { disagreesInRun } from "../reviews/judgment-key";
import { hasSpansCondition } from "./span-counts";
import {
  checkFilterAgainstTask,
  filterNeedsRun,
  filterReadsValues,
  isFieldSort,
  metricConditions,
  type VideoFilter,
  type VideoSort,
} from "./video-filter";

/**
 * Parameterised SQL for a parsed `VideoFilter`. Every value travels as a bind parameter (metric ids
 * too); the only SQL text chosen from input is a column from the fixed `FIELD_SORT_COLUMNS` table.
 *
 * Metric filters and sorts read `run_metric` (one row per run, video, item and metric, indexed on
 * (runId, metric, value)) and category filters the `score` table's (runId, category, value) index,
 * so they stay fast at 50,000 videos and 1,000,000 scores (`npm run bench:browse`).
 */
export interface FilterContext {
  projectId: string;
  /** The request's tasks: which query keys are metric filters, and what each declares. */
  catalogue: TaskCatalogue;
  /** The run whose scores are filtered and shown; null when the project has none. */
  runId: string | null;
  /**
   * The run's task: given, the filter and sort are checked against its declaration (a metric or
   * category it does not declare is a ValidationError naming the field).
   */
  task?: TaskDeclaration | null;
  /** The caller, for "reviewed by me". */
  userId: string;
  /**
   * Videos whose judge values the caller may not see yet (an unsubmitted item of a blind queue).
   * Filters on judge or reviewer values never match them, whichever way they are set, and score
   * sorts treat them as unscored, so neither a filter nor the order gives a value away.
   */
  hiddenVideoIds?: readonly string[];
}

function hidden(ctx: FilterContext): string[] {
  return [...(ctx.hiddenVideoIds ?? [])];
}

/**
 * `FROM video v LEFT JOIN run_video rv …`: the relation every filtered query reads. Given the filter,
 * a prompt search is applied first, behind an optimisation fence (OFFSET 0): it is answered from the
 * prompt's trigram index and may match few rows, and without the fence a sorted, limited page may
 * walk an index in sort order hoping for early matches (for a search that matches nothing: every
 * video). The WHERE of `videoFilterWhere` repeats the condition; over the few rows the index found,
 * that costs little.
 */
export function videoFilterFrom(ctx: FilterContext, filter?: VideoFilter, sort?: VideoSort): Prisma.Sql {
  // A metric sort reads its value from one more left join (unique on run_metric's key, so a count
  // over the same FROM drops it again).
  const sortJoin =
    sort !== undefined && !isFieldSort(sort)
      ? Prisma.sql`LEFT JOIN "run_metric" ms ON ms."runId" = ${ctx.runId} AND ms."videoId" = v."id" AND ms."itemId" = '' AND ms."metric" = ${sort}`
      : Prisma.empty;
  const join = Prisma.sql`LEFT JOIN "run_video" rv ON rv."runId" = ${ctx.runId} AND rv."videoId" = v."id" ${sortJoin}`;
  if (filter?.prompt) {
    return Prisma.sql`FROM (SELECT * FROM "video" v WHERE v."projectId" = ${ctx.projectId} AND ${promptMatches(filter.prompt)} OFFSET 0) v ${join}`;
  }
  return Prisma.sql`FROM "video" v ${join}`;
}

/** The text as a LIKE pattern that matches it literally (backslash is LIKE's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Case-insensitive substring. ILIKE on the column itself, so the GIN trigram index on "prompt"
 * (pg_trgm's gin_trgm_ops) answers it: a search of 3 characters or more reads only the prompts
 * holding all of its trigrams. (lower(prompt) LIKE would need an index on the expression.)
 */
export function promptMatches(text: string): Prisma.Sql {
  return Prisma.sql`v."prompt" ILIKE ${`%${escapeLike(text)}%`}`;
}

export function videoFilterWhere(filter: VideoFilter, ctx: FilterContext): Prisma.Sql {
  if (ctx.task) checkFilterAgainstTask(ctx.catalogue, filter, ctx.task);
  const and: Prisma.Sql[] = [Prisma.sql`v."projectId" = ${ctx.projectId}`];
  // Containment rather than `= ANY`: the GIN index on "dimensions" answers it (migration video_dimensions_gin).
  if (filter.dimension) and.push(Prisma.sql`v."dimensions" @> ARRAY[${filter.dimension}]::text[]`);
  if (filter.model) and.push(Prisma.sql`v."model" = ${filter.model}`);
  if (filter.prompt) and.push(promptMatches(filter.prompt));
  if (filter.status) and.push(Prisma.sql`v."status" = ${filter.status}::"VideoStatus"`);
  if (filter.runId) and.push(Prisma.sql`rv."runId" IS NOT NULL`);
  if (filter.spans) {
    // Spans are not a run's: the filter needs none. On a video the caller reviews blind the spans of others and of
    // the judge are withheld, so the filter never matches it, whichever way it is set.
    and.push(hasSpansCondition(filter.spans));
    if (hidden(ctx).length > 0) and.push(Prisma.sql`NOT (v."id" = ANY(${hidden(ctx)}::text[]))`);
  }
  if (!ctx.runId) {
    if (filterNeedsRun(ctx.catalogue, filter) || filter.runId) and.push(Prisma.sql`FALSE`);
    return Prisma.join(and, " AND ");
  }
  const run = ctx.runId;
  if (hidden(ctx).length > 0 && filterReadsValues(ctx.catalogue, filter))
    and.push(Prisma.sql`NOT (v."id" = ANY(${hidden(ctx)}::text[]))`);
  for (const condition of metricConditions(ctx.catalogue, filter, ctx.task)) {
    const bounds = [
      ...(condition.min !== undefined ? [Prisma.sql`AND m."value" >= ${condition.min}`] : []),
      ...(condition.max !== undefined ? [Prisma.sql`AND m."value" <= ${condition.max}`] : []),
    ];
    and.push(
      Prisma.sql`EXISTS (SELECT 1 FROM "run_metric" m WHERE m."runId" = ${run} AND m."videoId" = v."id" AND m."itemId" = '' AND m."metric" = ${condition.metric} ${Prisma.join(bounds, " ")})`,
    );
  }
  if (filter.unstable) {
    const ofCategory = filter.category ? Prisma.sql`AND d."category" = ${filter.category}` : Prisma.empty;
    and.push(
      Prisma.sql`EXISTS (SELECT 1 FROM "score_dispersion" d WHERE d."runId" = ${run} AND d."unstable" AND d."videoId" = v."id" ${ofCategory})`,
    );
  }
  if (filter.category) {
    // The worst (maximum) score within [min, max] is: some score reaches min, and none exceeds max.
    // Read so, the (runId, category, videoId, value) index answers with a range on the value instead
    // of a max() over every score of the category.
    const scores = Prisma.sql`FROM "score" s WHERE s."runId" = ${run} AND s."category" = ${filter.category}`;
    const reachesMin =
      filter.categoryMin !== undefined ? Prisma.sql`AND s."value" >= ${filter.categoryMin}` : Prisma.empty;
    and.push(Prisma.sql`v."id" IN (SELECT s."videoId" ${scores} ${reachesMin})`);
    if (filter.categoryMax !== undefined)
      and.push(
        Prisma.sql`NOT EXISTS (SELECT 1 ${scores} AND s."videoId" = v."id" AND s."value" > ${filter.categoryMax})`,
      );
  }
  // Judgments belong to targets, not runs: those of the run's task on the video count, and
  // disagreement compares each with this run's value of its target.
  const runTask = Prisma.sql`(SELECT r."pipeline" FROM "judge_run" r WHERE r."id" = ${run})`;
  // Label sets (imported labels) are annotators of their own in agreement, not live reviews: they
  // never make a video "reviewed" or sway the reviewers' verdict.
  if (filter.humanVerdict) {
    const majority =
      filter.humanVerdict === "yes" ? Prisma.sql`avg(h."value") > 0.5` : Prisma.sql`avg(h."value") < 0.5`;
    const verdict = ctx.task?.verdict?.metricId ?? "verdict";
    and.push(
      Prisma.sql`v."id" IN (SELECT h."videoId" FROM "human_judgment" h WHERE h."projectId" = ${ctx.projectId} AND h."task" = ${runTask} AND h."itemId" = '' AND h."stepId" = '' AND h."target" = ${verdict} AND h."labelSetId" IS NULL AND NOT h."withdrawn" GROUP BY h."videoId" HAVING ${majority})`,
    );
  }
  if (filter.review) {
    // Only videos the run judged have reviews in its view.
    const judged = (extra: Prisma.Sql) =>
      Prisma.sql`(EXISTS (SELECT 1 FROM "run_video" jr WHERE jr."runId" = ${run} AND jr."videoId" = v."id") AND EXISTS (SELECT 1 FROM "human_judgment" h WHERE h."videoId" = v."id" AND h."task" = ${runTask} AND h."labelSetId" IS NULL AND NOT h."withdrawn" ${extra}))`;
    const mine = Prisma.sql`AND h."reviewerId" = ${ctx.userId}`;
    const clause = {
      unreviewed: Prisma.sql`NOT ${judged(Prisma.empty)}`,
      reviewed: judged(Prisma.empty),
      reviewed_by_me: judged(mine),
      not_reviewed_by_me: Prisma.sql`NOT ${judged(mine)}`,
      // Per listed video through the judgments' (videoId, task) index, like the other review states (a
      // semi-join over all the project's judgments is planned as a nested loop under the page's LIMIT).
      disagreement: judged(Prisma.sql`AND ${disagreesInRun("h", Prisma.sql`${run}`, ctx.catalogue.tasks)}`),
    }[filter.review];
    and.push(clause);
  }
  return Prisma.join(and, " AND ");
}

/**
 * The path sorts naturally ("clip-2" before "clip-10"), by its key: digit runs padded, case lowered (the
 * SQL function of migration video_path_natural_order). The key is the stored column "pathSortKey", which the
 * database generates from the path (collation "C": byte order, the same whatever the database's locale) and
 * indexes with the project and with its model. Sorting by the function instead would compute it for every row
 * a plan passes (about 90 µs each: seconds for a deep page or a broad search at 200,000 videos).
 */
export const PATH_SORT_KEY = Prisma.sql`v."pathSortKey"`;

const FIELD_SORT_COLUMNS: Record<string, Prisma.Sql> = {
  path: PATH_SORT_KEY,
  prompt: Prisma.sql`v."prompt"`,
  model: Prisma.sql`v."model"`,
  created: Prisma.sql`v."createdAt"`,
};

/**
 * The value a list sorts on. A metric sort reads `videoFilterFrom(ctx, filter, sort)`'s join, and
 * treats videos whose values the caller may not see as unscored.
 */
export function videoSortValue(sort: VideoSort, ctx?: FilterContext): Prisma.Sql {
  if (isFieldSort(sort)) return FIELD_SORT_COLUMNS[sort]!;
  const hiddenIds = ctx ? hidden(ctx) : [];
  return hiddenIds.length > 0
    ? Prisma.sql`(CASE WHEN v."id" = ANY(${hiddenIds}::text[]) THEN NULL ELSE ms."value" END)`
    : Prisma.sql`ms."value"`;
}

export function videoOrderBy(sort: VideoSort, dir: "asc" | "desc", ctx?: FilterContext): Prisma.Sql {
  return Prisma.sql`ORDER BY ${videoSortValue(sort, ctx)} ${dir === "desc" ? Prisma.sql`DESC` : Prisma.sql`ASC`} NULLS LAST, v."id" ASC`;
}

/**
 * The run a filter reads: the one it names (which must be in the project), else the project's
 * latest finished run (DEFAULT_RUN_WHERE) of a task that judges videos themselves (a run over items, such
 * as captions, has no per-video metrics to show), else null. With its task's declaration.
 */
/**
 * The runs a page may show when none is named: finished ones. A run stopped, cancelled or still judging has
 * scores for some videos or none; an ensemble's member is shown through its ensemble run.
 */
export const DEFAULT_RUN_WHERE = { status: "done", parentRunId: null } satisfies Prisma.JudgeRunWhereInput;

export async function resolveFilterRun(
  prisma: PrismaClient,
  catalogue: DeclarationCatalogue,
  projectId: string,
  runId: string | undefined,
) {
  const select = { id: true, pipeline: true, createdAt: true, status: true, simulated: true } as const;
  const run = runId
    ? await prisma.judgeRun.findFirst({ where: { id: runId, projectId }, select })
    : await prisma.judgeRun.findFirst({
        where: { projectId, pipeline: { in: catalogue.videoSubjectPipelineIds() }, ...DEFAULT_RUN_WHERE },
        orderBy: { createdAt: "desc" },
        select,
      });
  if (runId && !run) throw new NotFoundError("No such judge run in this project.");
  return run ? { ...run, task: catalogue.taskOf(run.pipeline) } : null;
}

/** Ids of every video matching the filter, in list order (for queues and exports). */
export async function matchingVideoIds(
  prisma: PrismaClient,
  filter: VideoFilter,
  ctx: FilterContext,
  sort: VideoSort = "path",
  dir: "asc" | "desc" = "asc",
): Promise<string[]> {
  if (ctx.task) checkFilterAgainstTask(ctx.catalogue, filter, ctx.task, sort);
  const rows = await prisma.$queryRaw<
    { id: string }[]
  >`SELECT v."id" ${videoFilterFrom(ctx, undefined, sort)} WHERE ${videoFilterWhere(filter, ctx)} ${videoOrderBy(sort, dir)}`;
  return rows.map((row) => row.id);
}
