import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { ValidationError } from "../errors";
import { isFieldSort, type VideoFilter, type VideoListQuery, type VideoSort } from "./video-filter";
import {
  type FilterContext,
  PATH_SORT_KEY,
  videoFilterFrom,
  videoFilterWhere,
  videoOrderBy,
  videoSortValue,
} from "./video-filter-sql";
import { checkCursorFits, decodeVideoListCursor, encodeVideoListCursor, type SortValueKind } from "./video-list-cursor";

/**
 * The ids of one page of the video list, found from a position (keyset pagination) or, for `page`
 * without a cursor, by OFFSET.
 *
 * The list's order is (sort value in the list's direction, NULLS LAST; id ascending). A position is
 * a row's (value, id). Read as one ORDER BY over a LEFT JOIN, a metric sort can't use the
 * run_metric index (the rows without a value have to come last, and only a full sort knows where
 * they are), so the order is read as two zones, each with a plain index order:
 *   1. rows with a value: (value, id), an index range on run_metric (runId, metric, value) for a
 *      metric, or the video's own column;
 *   2. rows without one (no metric row, or a value the caller may not see in a blind queue, or no
 *      prompt/model): id ascending, by the video's (projectId, id) index and an anti-join.
 * A page from a position reads zone 1 from there, and zone 2 from its start only if zone 1 runs out
 * (or zone 2 alone when the position is in it). Ties share a value and are ordered by id, so the
 * position (value, id) is unambiguous and no row is skipped or repeated between pages.
 */

export interface PageRow {
  id: string;
  /** The row's sort value as the list sees it (null for a hidden one); a time as a Date. */
  sortValue: number | string | Date | null;
}

interface ListPosition {
  value: number | string | null;
  id: string;
}

interface SortZones {
  kind: SortValueKind;
  /** The sort value of a row in zone 1. */
  value: Prisma.Sql;
  /** A bind parameter of the sort's type, for comparing with `value`. */
  param: (value: number | string) => Prisma.Sql;
  /** Zone 1: rows with a value (TRUE when every row has one). */
  valued: Prisma.Sql;
  /** Zone 2: rows without one, given the id the read starts from; null when every row has a value. */
  unvalued: ((from: { op: ">" | "<"; id: string } | null) => Prisma.Sql) | null;
  /** Zone 1 is empty whatever the filter (a metric sort with no run to read). */
  noValues: boolean;
}

const textParam = (value: number | string) => Prisma.sql`${String(value)}::text`;

function sortZones(sort: VideoSort, ctx: FilterContext): SortZones {
  const hidden = [...(ctx.hiddenVideoIds ?? [])];
  if (!isFieldSort(sort)) {
    // The metric's value comes from videoFilterFrom's join `ms` (unused in zone 2, where the planner drops it).
    const visible = hidden.length > 0 ? Prisma.sql`AND NOT (v."id" = ANY(${hidden}::text[]))` : Prisma.empty;
    return {
      kind: "number",
      value: Prisma.sql`ms."value"`,
      param: (value) => Prisma.sql`${Number(value)}::double precision`,
      valued: Prisma.sql`ms."value" IS NOT NULL ${visible}`,
      unvalued: (from) => {
        // The bound on mn."videoId" repeats v."id"'s so the anti-join's index scan starts there too.
        const bound = from ? Prisma.sql`AND mn."videoId" ${Prisma.raw(from.op)} ${from.id}` : Prisma.empty;
        const none = Prisma.sql`NOT EXISTS (SELECT 1 FROM "run_metric" mn WHERE mn."runId" = ${ctx.runId} AND mn."videoId" = v."id" AND mn."itemId" = '' AND mn."metric" = ${sort} ${bound})`;
        return hidden.length > 0 ? Prisma.sql`(${none} OR v."id" = ANY(${hidden}::text[]))` : none;
      },
      noValues: ctx.runId === null,
    };
  }
  switch (sort) {
    case "path":
      return {
        kind: "text",
        value: PATH_SORT_KEY,
        param: textParam,
        valued: Prisma.sql`TRUE`,
        unvalued: null,
        noValues: false,
      };
    case "created":
      return {
        kind: "time",
        value: Prisma.sql`v."createdAt"`,
        param: (value) => Prisma.sql`${String(value)}::timestamp(3)`,
        valued: Prisma.sql`TRUE`,
        unvalued: null,
        noValues: false,
      };
    case "prompt":
    case "model": {
      const column = sort === "prompt" ? Prisma.sql`v."prompt"` : Prisma.sql`v."model"`;
      return {
        kind: "optional-text",
        value: column,
        param: textParam,
        valued: Prisma.sql`${column} IS NOT NULL`,
        unvalued: () => Prisma.sql`${column} IS NULL`,
        noValues: false,
      };
    }
  }
}

/** A video's current value of a text sort (the path's sort key, prompt, model), for a cursor that did not carry it; undefined when the video is gone. */
async function textSortValueOf(
  prisma: PrismaClient,
  ctx: FilterContext,
  sort: VideoSort,
  videoId: string,
): Promise<string | null | undefined> {
  if (sort === "path") {
    // The path's sort key, as the list compares it.
    const rows = await prisma.$queryRaw<
      { key: string }[]
    >`SELECT ${PATH_SORT_KEY} AS "key" FROM "video" v WHERE v."id" = ${videoId} AND v."projectId" = ${ctx.projectId}`;
    return rows[0]?.key;
  }
  const video = await prisma.video.findFirst({
    where: { id: videoId, projectId: ctx.projectId },
    select: { relativePath: true, prompt: true, model: true },
  });
  if (!video) return undefined;
  return sort === "prompt" ? video.prompt : video.model;
}

/** What a cursor's value must be for this sort. */
function sortValueKind(sort: VideoSort): SortValueKind {
  if (!isFieldSort(sort)) return "number";
  return sort === "path" ? "text" : sort === "created" ? "time" : "optional-text";
}

interface KeysetRead {
  /** Read the rows after the position (forward in list order) or before it (backward). */
  toward: "after" | "before";
  /** The position; null: from the start (after) or the end (before) of the list. */
  position: ListPosition | null;
  /** How many rows to read at most. */
  limit: number;
}

/**
 * Up to `limit` rows next to a position, nearest first: for `after` in list order, for `before` in
 * reverse list order.
 */
async function readFromPosition(
  prisma: PrismaClient,
  ctx: FilterContext,
  filter: VideoFilter,
  sort: VideoSort,
  dir: "asc" | "desc",
  read: KeysetRead,
): Promise<PageRow[]> {
  const zones = sortZones(sort, ctx);
  const from = videoFilterFrom(ctx, filter, sort);
  const where = videoFilterWhere(filter, ctx);
  const forward = read.toward === "after";
  const position = read.position;
  // Reading forward, zone 1 comes first; backward, zone 2 does.
  const inZone2 = position !== null && position.value === null;

  const readValued = async (limit: number, at: ListPosition | null): Promise<PageRow[]> => {
    if (zones.noValues || limit <= 0) return [];
    const valueDir = forward === (dir === "asc") ? "ASC" : "DESC";
    const idDir = forward ? "ASC" : "DESC";
    let keyset = Prisma.empty;
    if (at && at.value !== null) {
      // Past (value, id): a strictly further value, or the same value and a further id. The first
      // conjunct alone is an index range; the second picks the ties.
      const op = valueDir === "ASC" ? ">" : "<";
      const value = zones.param(at.value);
      keyset = Prisma.sql`AND ${zones.value} ${Prisma.raw(op)}= ${value} AND (${zones.value} ${Prisma.raw(op)} ${value} OR v."id" ${Prisma.raw(forward ? ">" : "<")} ${at.id})`;
    }
    return prisma.$queryRaw<PageRow[]>`SELECT v."id", ${zones.value} AS "sortValue" ${from}
      WHERE ${where} AND ${zones.valued} ${keyset}
      ORDER BY ${zones.value} ${Prisma.raw(valueDir)}, v."id" ${Prisma.raw(idDir)} LIMIT ${limit}`;
  };
  const readUnvalued = async (limit: number, at: ListPosition | null): Promise<PageRow[]> => {
    if (!zones.unvalued || limit <= 0) return [];
    const bound = at ? { op: forward ? (">" as const) : ("<" as const), id: at.id } : null;
    const keyset = bound ? Prisma.sql`AND v."id" ${Prisma.raw(bound.op)} ${bound.id}` : Prisma.empty;
    return prisma.$queryRaw<PageRow[]>`SELECT v."id", NULL AS "sortValue" ${from}
      WHERE ${where} AND ${zones.unvalued(bound)} ${keyset}
      ORDER BY v."id" ${Prisma.raw(forward ? "ASC" : "DESC")} LIMIT ${limit}`;
  };

  if (forward) {
    if (inZone2) return readUnvalued(read.limit, position);
    const valued = await readValued(read.limit, position);
    return valued.length < read.limit ? [...valued, ...(await readUnvalued(read.limit - valued.length, null))] : valued;
  }
  if (position !== null && !inZone2) return readValued(read.limit, position);
  const unvalued = await readUnvalued(read.limit, position);
  return unvalued.length < read.limit
    ? [...unvalued, ...(await readValued(read.limit - unvalued.length, null))]
    : unvalued;
}

/**
 * Zone 1 of a metric sort read from run_metric alone, when nothing but the project narrows the list and no
 * value is hidden from the caller: every video a run scored is one of the run's project's, so the run's rows
 * for the metric (itemId '') are zone 1 exactly, and an OFFSET skips entries of the (runId, metric, itemId,
 * value, videoId) index instead of joining a video row for every row it skips (page=500 by a score on
 * 200,000 videos read 25,000 video rows to show 50). Null when the list has any other condition.
 */
function metricRowsAreZone1(
  ctx: FilterContext,
  sort: VideoSort,
  where: Prisma.Sql,
): { from: Prisma.Sql; id: Prisma.Sql } | null {
  if (isFieldSort(sort) || ctx.runId === null || (ctx.hiddenVideoIds?.length ?? 0) > 0) return null;
  const projectOnly = Prisma.sql`v."projectId" = ${ctx.projectId}`;
  if (where.text !== projectOnly.text || where.values.length !== 1 || where.values[0] !== ctx.projectId) return null;
  return {
    from: Prisma.sql`FROM "run_metric" ms WHERE ms."runId" = ${ctx.runId} AND ms."metric" = ${sort} AND ms."itemId" = ''`,
    id: Prisma.sql`ms."videoId"`,
  };
}

/**
 * Up to `limit` rows from `offset` in list order: `page` without a cursor (kept for links and API
 * clients that count pages). A sort with rows lacking a value reads by zone, as a position does:
 * one ORDER BY over the whole LEFT JOIN would sort every video to find where the unvalued ones go,
 * while zone 1 alone is read in index order. Only a page that zone 1 does not fill reads zone 2,
 * and only a page wholly past zone 1 counts it (to know where in zone 2 the page starts).
 */
async function readFromOffset(
  prisma: PrismaClient,
  ctx: FilterContext,
  filter: VideoFilter,
  sort: VideoSort,
  dir: "asc" | "desc",
  offset: number,
  limit: number,
): Promise<PageRow[]> {
  const from = videoFilterFrom(ctx, filter, sort);
  const where = videoFilterWhere(filter, ctx);
  const zones = sortZones(sort, ctx);
  if (!zones.unvalued) {
    return prisma.$queryRaw<PageRow[]>`SELECT v."id", ${videoSortValue(sort, ctx)} AS "sortValue" ${from}
      WHERE ${where} ${videoOrderBy(sort, dir, ctx)} LIMIT ${limit} OFFSET ${offset}`;
  }
  const valueDir = Prisma.raw(dir === "asc" ? "ASC" : "DESC");
  const metricRowsOnly = metricRowsAreZone1(ctx, sort, where);
  const valued = zones.noValues
    ? []
    : metricRowsOnly
      ? await prisma.$queryRaw<
          PageRow[]
        >`SELECT ${metricRowsOnly.id} AS "id", ms."value" AS "sortValue" ${metricRowsOnly.from}
        ORDER BY ms."value" ${valueDir}, ms."videoId" ASC LIMIT ${limit} OFFSET ${offset}`
      : await prisma.$queryRaw<PageRow[]>`SELECT v."id", ${zones.value} AS "sortValue" ${from}
        WHERE ${where} AND ${zones.valued} ORDER BY ${zones.value} ${valueDir}, v."id" ASC LIMIT ${limit} OFFSET ${offset}`;
  if (valued.length === limit) return valued;
  // Zone 1 ends on this page (offset + the rows read), or before it: then only a count tells where.
  let zone1 = offset + valued.length;
  if (valued.length === 0 && offset > 0 && !zones.noValues) {
    const counted = metricRowsOnly
      ? await prisma.$queryRaw<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM (SELECT 1 ${metricRowsOnly.from} LIMIT ${offset}) zone1`
      : await prisma.$queryRaw<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM (SELECT 1 ${from} WHERE ${where} AND ${zones.valued} LIMIT ${offset}) zone1`;
    zone1 = counted[0]?.n ?? 0;
  }
  const unvalued = await prisma.$queryRaw<PageRow[]>`SELECT v."id", NULL AS "sortValue" ${from}
    WHERE ${where} AND ${zones.unvalued(null)} ORDER BY v."id" ASC LIMIT ${limit - valued.length} OFFSET ${Math.max(0, offset - zone1)}`;
  return [...valued, ...unvalued];
}

/** The position of a listed row, as a cursor carries it. */
function positionOf(row: PageRow): ListPosition {
  const value = row.sortValue instanceof Date ? row.sortValue.toISOString() : row.sortValue;
  return { value: value ?? null, id: row.id };
}

export interface ListedPage {
  /** The page's rows, in list order. */
  rows: PageRow[];
  page: number;
  nextCursor: string | null;
  prevCursor: string | null;
}

/**
 * The page's ids in list order. A cursor, or the first page, reads by position (keyset); `page` > 1
 * without a cursor reads by OFFSET, as it always did. Either way the answer carries cursors for the
 * pages next to it, so a client that jumped by number continues by position.
 */
export async function readListPage(
  prisma: PrismaClient,
  ctx: FilterContext,
  query: VideoListQuery,
): Promise<ListedPage> {
  const { sort, dir, pageSize } = query;
  const cursor = query.cursor === undefined ? null : decodeVideoListCursor(query.cursor);
  if (query.cursor !== undefined && !cursor) throw new ValidationError("cursor: is not a cursor from this API");
  let rows: PageRow[];
  let page: number;
  let hasNext: boolean;
  if (cursor) {
    checkCursorFits(cursor, sort, dir, sortValueKind(sort));
    let value = cursor.value;
    if (cursor.valueInRow) {
      const found = await textSortValueOf(prisma, ctx, sort, cursor.id);
      if (found === undefined)
        throw new ValidationError("cursor: the video it points at is gone; start again from the first page.");
      value = found;
    }
    const position = { value, id: cursor.id };
    if (cursor.toward === "after") {
      const read = await readFromPosition(prisma, ctx, query, sort, dir, {
        toward: "after",
        position,
        limit: pageSize + 1,
      });
      [rows, page, hasNext] = [read.slice(0, pageSize), cursor.page, read.length > pageSize];
    } else {
      const read = await readFromPosition(prisma, ctx, query, sort, dir, {
        toward: "before",
        position,
        limit: pageSize + 1,
      });
      if (read.length >= pageSize) {
        // Exactly a page before the position: that page is the first (whatever number the cursor expected).
        [rows, page, hasNext] = [
          read.slice(0, pageSize).reverse(),
          read.length > pageSize ? Math.max(2, cursor.page) : 1,
          true,
        ];
      } else {
        // Less than a page before it (rows were deleted since the cursor was made): the first page, full.
        const first = await readFromPosition(prisma, ctx, query, sort, dir, {
          toward: "after",
          position: null,
          limit: pageSize + 1,
        });
        [rows, page, hasNext] = [first.slice(0, pageSize), 1, first.length > pageSize];
      }
    }
  } else if (query.page === 1) {
    const read = await readFromPosition(prisma, ctx, query, sort, dir, {
      toward: "after",
      position: null,
      limit: pageSize + 1,
    });
    [rows, page, hasNext] = [read.slice(0, pageSize), 1, read.length > pageSize];
  } else {
    const read = await readFromOffset(prisma, ctx, query, sort, dir, (query.page - 1) * pageSize, pageSize + 1);
    [rows, page, hasNext] = [read.slice(0, pageSize), query.page, read.length > pageSize];
  }
  const cursorAt = (row: PageRow, toward: "after" | "before", to: number) =>
    encodeVideoListCursor({ sort, dir, toward, ...positionOf(row), page: to });
  const last = rows[rows.length - 1];
  return {
    rows,
    page,
    nextCursor: hasNext && last ? cursorAt(last, "after", page + 1) : null,
    prevCursor: page > 1 && rows[0] ? cursorAt(rows[0], "before", page - 1) : null,
  };
}
