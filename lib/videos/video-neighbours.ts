import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { blindVideoIdsFor } from "../visibility/judge-visibility";
import { checkFilterAgainstTask, type VideoListQuery } from "./video-filter";
import {
  type FilterContext,
  resolveFilterRun,
  videoFilterFrom,
  videoFilterWhere,
  videoOrderBy,
} from "./video-filter-sql";

export interface VideoNeighbours {
  previousId: string | null;
  nextId: string | null;
  /** 1-based place of the video in the list. */
  position: number;
  total: number;
}

/**
 * The videos before and after `videoId` in the video list under `query` (its filter and order, with the
 * same blind rules as the list, so a neighbour gives no judge value away), or null when the video is
 * not in that list. The page and page size are ignored: neighbours cross page boundaries.
 */
export async function videoNeighbours(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: VideoListQuery,
  videoId: string,
  given?: TaskCatalogue,
): Promise<VideoNeighbours | null> {
  const { actor, projectId } = access;
  const catalogue = await catalogueOf(prisma, projectId, given);
  const run = await resolveFilterRun(prisma, catalogue, projectId, query.runId);
  const blind = await blindVideoIdsFor(prisma, actor.userId);
  const ctx: FilterContext = {
    projectId,
    catalogue,
    runId: run?.id ?? null,
    task: run?.task ?? null,
    userId: actor.userId,
    hiddenVideoIds: [...blind],
  };
  if (run) checkFilterAgainstTask(catalogue, query, run.task, query.sort);
  const [row] = await prisma.$queryRaw<
    { previousId: string | null; nextId: string | null; position: number; total: number }[]
  >`
    SELECT n."previousId", n."nextId", n."position", n."total" FROM (
      SELECT v."id", lag(v."id") OVER w AS "previousId", lead(v."id") OVER w AS "nextId",
        (row_number() OVER w)::int AS "position", (count(*) OVER ())::int AS "total"
      ${videoFilterFrom(ctx, query, query.sort)} WHERE ${videoFilterWhere(query, ctx)}
      WINDOW w AS (${videoOrderBy(query.sort, query.dir, ctx)})
    ) n WHERE n."id" = ${videoId}`;
  return row ?? null;
}
