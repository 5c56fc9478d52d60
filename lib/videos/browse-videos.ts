import { disagreesInRun } from "../reviews/judgment-key";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { isYesNoScale, type TaskDeclaration } from "../task-modules/task-declaration";
import { videoJson } from "./queries";
import { checkFilterAgainstTask, type VideoListQuery } from "./video-filter";
import { type FilterContext, resolveFilterRun, videoFilterFrom, videoFilterWhere } from "./video-filter-sql";
import { readListPage } from "./video-list-keyset";
import { catalogFor, catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import { runNameOfRow } from "../run-records/run-name";
import { type SpanCounts, videoSpanCounts } from "./span-counts";

type VideoRow = Prisma.VideoGetPayload<object>;

export interface BrowseRun {
  id: string;
  createdAt: Date;
  pipeline: string;
  simulated: boolean;
  status: string;
  /** The run's name (lib/run-records/run-name.ts), where the list's run select shows it. */
  name?: string;
}

/** The run's headline metrics for one video, keyed by declared metric id (null: unknown); a yes/no metric is a boolean. */
export type BrowseScores = Record<string, number | boolean | null>;

export interface BrowseReview {
  /** Distinct reviewers with at least one judgment of the video in the run. */
  reviewers: number;
  /** The caller has a judgment of the video in the run. */
  byMe: boolean;
  /** Some reviewer's judgment in the run disagrees with the judge (lib/reviews/disagreement.ts). */
  disagreement: boolean;
}

export type BrowseVideo = ReturnType<typeof videoJson> & {
  frameSetCount: number;
  keyFrameCount: number;
  /** The first key frame of the video's latest frame set, or null. */
  thumbnailUrl: string | null;
  /** The video's scores in the run; null when the video is not in it (or there is no run). */
  scores: BrowseScores | null;
  review: BrowseReview;
  /** The caller is reviewing this video in a blind queue: its judge values are withheld until they submit. */
  blind: boolean;
  /** The video's spans that count, by who marked them; null while the caller reviews it blind (withheld). */
  spans: SpanCounts | null;
};

export interface BrowseResult {
  /** The run whose scores are shown and filtered: the one named, else the project's latest. */
  run: BrowseRun | null;
  /** The page number: `page`'s, or the one the cursor leads to. */
  page: number;
  pageSize: number;
  /**
   * The number of matching videos when `totalExact`; otherwise a lower bound (at least
   * `LIST_COUNT_CAP`, and at least the rows up to this page and one past it): shown as "10,000+".
   */
  total: number;
  /** Whether `total` is the exact count: false when more than `LIST_COUNT_CAP` videos match. */
  totalExact: boolean;
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** Pass as `cursor` for the previous page; null on the first page. */
  prevCursor: string | null;
  videos: BrowseVideo[];
}

type PageRow = VideoRow & {
  rv_in: boolean;
  rv_metrics: Record<string, number> | null;
};

/** Every declared metric of the task, in declared order, from the stored rows. */
export function metricScores(task: TaskDeclaration, stored: Record<string, number> | null): BrowseScores {
  return Object.fromEntries(
    task.metrics.map((metric) => {
      const value = stored?.[metric.id];
      if (value === undefined || value === null) return [metric.id, null];
      return [metric.id, isYesNoScale(metric.scale) ? value === 1 : value];
    }),
  );
}

interface ExtraRow {
  id: string;
  frameSetCount: number;
  keyFrameCount: number | null;
  thumbnailFrameId: string | null;
  reviewers: number;
  byMe: boolean;
  disagreement: boolean;
}

/**
 * How far the list counts its matches. An exact count reads every matching row (for "unreviewed" on
 * 200,000 videos, a probe of the judgments per video), while the page itself reads ~50; past the cap
 * the list says "10,000+" instead, and the count stops after CAP + 1 rows (`npm run bench:browse`).
 */
export const LIST_COUNT_CAP = 10_000;

/** The page's video rows with their run_video row and metrics in the run, in list order. */
function pageVideoRows(prisma: PrismaClient, ids: string[], runId: string | null): Promise<PageRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return prisma.$queryRaw<PageRow[]>`SELECT v.*, (rv."videoId" IS NOT NULL) AS "rv_in", rm."metrics" AS "rv_metrics"
      FROM unnest(${ids}::text[]) WITH ORDINALITY AS page("id", "position")
      JOIN "video" v ON v."id" = page."id"
      LEFT JOIN "run_video" rv ON rv."runId" = ${runId} AND rv."videoId" = v."id"
      LEFT JOIN LATERAL (
        SELECT jsonb_object_agg(m."metric", m."value") AS "metrics" FROM "run_metric" m
        WHERE m."runId" = ${runId} AND m."videoId" = v."id" AND m."itemId" = ''
      ) rm ON TRUE
      ORDER BY page."position"`;
}

/** Each page video's latest frame set and thumbnail, and its review state in the run (reviewers, mine, disagreement). */
async function pageExtras(
  prisma: PrismaClient,
  ids: string[],
  ctx: FilterContext,
  userId: string,
): Promise<Map<string, ExtraRow>> {
  const extras = new Map<string, ExtraRow>();
  if (ids.length === 0) return extras;
  const rows = await prisma.$queryRaw<ExtraRow[]>`
      SELECT p."id", fs."frameSetCount", fs."keyFrameCount", kf."id" AS "thumbnailFrameId",
        coalesce(r."reviewers", 0) AS "reviewers", coalesce(r."byMe", false) AS "byMe", coalesce(r."disagreement", false) AS "disagreement"
      FROM unnest(${ids}::text[]) AS p("id")
      LEFT JOIN LATERAL (
        SELECT f."id", f."keyFrameCount", count(*) OVER ()::int AS "frameSetCount" FROM "frame_set" f
        WHERE f."videoId" = p."id" ORDER BY f."createdAt" DESC, f."id" DESC LIMIT 1
      ) fs ON TRUE
      LEFT JOIN LATERAL (
        SELECT fr."id" FROM "frame" fr WHERE fr."frameSetId" = fs."id" AND fr."isKeyFrame" ORDER BY fr."index" ASC LIMIT 1
      ) kf ON TRUE
      LEFT JOIN LATERAL (
        SELECT count(DISTINCT h."reviewerId")::int AS "reviewers", bool_or(h."reviewerId" = ${userId}) AS "byMe",
          coalesce(bool_or(${disagreesInRun("h", Prisma.sql`${ctx.runId}`, ctx.catalogue.tasks)}), false) AS "disagreement"
        FROM "human_judgment" h WHERE h."videoId" = p."id" AND h."labelSetId" IS NULL AND NOT h."withdrawn" AND h."task" = (SELECT r."pipeline" FROM "judge_run" r WHERE r."id" = ${ctx.runId})
          AND EXISTS (SELECT 1 FROM "run_video" jr WHERE jr."runId" = ${ctx.runId} AND jr."videoId" = p."id")
      ) r ON TRUE`;
  for (const row of rows) extras.set(row.id, row);
  return extras;
}

/**
 * One page of a project's videos under a parsed filter, with each video's scores in the resolved
 * run, its thumbnail and the review state. Whatever the page size: the count beside the page's ids
 * (one or two keyset reads, or one OFFSET read), then the page's video rows with their run_video row
 * beside their frame sets and judgments.
 */
export async function browseVideos(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: VideoListQuery,
  given?: TaskCatalogue,
): Promise<BrowseResult> {
  const { actor, projectId } = access;
  const catalogue = await catalogueOf(prisma, projectId, given);
  // Two independent reads at once (each round trip counts on a busy machine).
  const [run, blind] = await Promise.all([
    resolveFilterRun(prisma, catalogue, projectId, query.runId),
    blindVideoIdsFor(prisma, actor.userId),
  ]);
  const ctx: FilterContext = {
    projectId,
    catalogue,
    runId: run?.id ?? null,
    task: run?.task ?? null,
    userId: actor.userId,
    hiddenVideoIds: [...blind],
  };
  if (run) checkFilterAgainstTask(catalogue, query, run.task, query.sort);
  const from = videoFilterFrom(ctx, query, query.sort);
  const where = videoFilterWhere(query, ctx);

  const [countRows, listed] = await Promise.all([
    prisma.$queryRaw<
      { total: number }[]
    >`SELECT count(*)::int AS total FROM (SELECT 1 ${from} WHERE ${where} LIMIT ${LIST_COUNT_CAP + 1}) capped`,
    readListPage(prisma, ctx, query),
  ]);

  const counted = countRows[0]?.total ?? 0;
  const totalExact = counted <= LIST_COUNT_CAP;
  // Capped: the rows before and on this page, and one more when there is a next page, surely exist.
  const seen = (listed.page - 1) * query.pageSize + listed.rows.length + (listed.nextCursor ? 1 : 0);
  const total = totalExact ? counted : Math.max(LIST_COUNT_CAP, seen);

  const ids = listed.rows.map((row) => row.id);
  const [pageRows, spanCounts, extras] = await Promise.all([
    pageVideoRows(prisma, ids, ctx.runId),
    videoSpanCounts(prisma, ids),
    pageExtras(prisma, ids, ctx, actor.userId),
  ]);

  return {
    run: run
      ? { id: run.id, createdAt: run.createdAt, pipeline: run.pipeline, simulated: run.simulated, status: run.status }
      : null,
    page: listed.page,
    pageSize: query.pageSize,
    total,
    totalExact,
    nextCursor: listed.nextCursor,
    prevCursor: listed.prevCursor,
    videos: pageRows.map((row) => {
      const extra = extras.get(row.id);
      const isBlind = blind.has(row.id);
      return {
        ...videoJson(row),
        frameSetCount: extra?.frameSetCount ?? 0,
        keyFrameCount: extra?.keyFrameCount ?? 0,
        thumbnailUrl: extra?.thumbnailFrameId ? `/api/v1/frames/${extra.thumbnailFrameId}/image` : null,
        scores: row.rv_in && !isBlind && run ? metricScores(run.task, row.rv_metrics) : null,
        review: {
          reviewers: extra?.reviewers ?? 0,
          byMe: extra?.byMe ?? false,
          disagreement: !isBlind && (extra?.disagreement ?? false),
        },
        blind: isBlind,
        spans: isBlind ? null : (spanCounts.get(row.id) ?? null),
      };
    }),
  };
}

export interface BrowseOptions {
  dimensions: string[];
  models: string[];
  /** The project's runs, newest first. */
  runs: BrowseRun[];
}

/** The choices of the list's dimension, model and run selects. */
export async function browseOptions(prisma: PrismaClient, access: ProjectAccess): Promise<BrowseOptions> {
  const { projectId } = access;
  // Distinct values by skipping through the (projectId, dimensions) and (projectId, model, …) indexes:
  // one index probe per distinct value instead of a scan of every video.
  const [dimensions, models, runs] = await Promise.all([
    prisma.$queryRaw<{ d: string }[]>`WITH RECURSIVE arrays AS (
        (SELECT v."dimensions" AS a FROM "video" v WHERE v."projectId" = ${projectId} ORDER BY v."dimensions" LIMIT 1)
        UNION ALL
        SELECT (SELECT v."dimensions" FROM "video" v WHERE v."projectId" = ${projectId} AND v."dimensions" > arrays.a ORDER BY v."dimensions" LIMIT 1)
        FROM arrays WHERE arrays.a IS NOT NULL
      )
      SELECT DISTINCT unnest(arrays.a) AS d FROM arrays WHERE arrays.a IS NOT NULL ORDER BY d`,
    prisma.$queryRaw<{ m: string }[]>`WITH RECURSIVE models AS (
        (SELECT v."model" AS m FROM "video" v WHERE v."projectId" = ${projectId} AND v."model" IS NOT NULL ORDER BY v."model" LIMIT 1)
        UNION ALL
        SELECT (SELECT v."model" FROM "video" v WHERE v."projectId" = ${projectId} AND v."model" > models.m ORDER BY v."model" LIMIT 1)
        FROM models WHERE models.m IS NOT NULL
      )
      SELECT models.m FROM models WHERE models.m IS NOT NULL ORDER BY models.m`,
    prisma.judgeRun.findMany({
      where: { projectId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 200,
      select: {
        id: true,
        createdAt: true,
        pipeline: true,
        simulated: true,
        status: true,
        endpointSnapshot: true,
        endpoint: { select: { name: true, model: true } },
      },
    }),
  ]);
  const catalogue = await catalogFor(prisma, projectId);
  return {
    dimensions: dimensions.map((row) => row.d),
    models: models.map((row) => row.m),
    runs: runs.map(({ endpointSnapshot: _snapshot, endpoint: _endpoint, ...run }) => ({
      ...run,
      name: runNameOfRow({ ...run, endpointSnapshot: _snapshot, endpoint: _endpoint }, catalogue),
    })),
  };
}
