import { catalogFor } from "../task-modules/task-catalogue";
import { z } from "zod";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { ValidationError } from "../errors";
import { runNameOfRow } from "../run-records/run-name";
import { escapeLike } from "../videos/video-filter-sql";

/**
 * The project search behind the navigation bar's box: videos (by file name, path or prompt), judge
 * runs (by their name: task, model @ endpoint, date) and review queues (by name), in one project.
 */
export const projectSearchSchema = z.object({
  q: z.string().trim().min(1, "Type something to search for.").max(200, "A search is at most 200 characters."),
});

/** Most hits per kind; the page says when there are more. */
export const SEARCH_LIMIT = 20;

export interface ProjectSearchResult {
  query: string;
  videos: { id: string; fileName: string; prompt: string | null; model: string | null }[];
  runs: { id: string; name: string; pipeline: string }[];
  queues: { id: string; name: string; archived: boolean }[];
  /** Kinds that had more than SEARCH_LIMIT hits. */
  truncated: ("videos" | "runs" | "queues")[];
}

export async function searchProject(
  prisma: PrismaClient,
  access: ProjectAccess,
  raw: unknown,
): Promise<ProjectSearchResult> {
  const { projectId } = access;
  const parsed = projectSearchSchema.safeParse(raw);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? "Invalid search.");
  const query = parsed.data.q;
  // ILIKE on the columns themselves, with LIKE's wildcards taken literally (Prisma's `contains` would
  // let "%" and "_" match anything): the prompt's trigram index (docs/guide/browsing-and-reviewing.md, "Browsing videos") answers it.
  const pattern = `%${escapeLike(query)}%`;
  const [videos, queues, runs] = await Promise.all([
    prisma.$queryRaw<ProjectSearchResult["videos"]>(Prisma.sql`
      SELECT v."id", v."fileName", v."prompt", v."model" FROM "video" v
      WHERE v."projectId" = ${projectId} AND (v."fileName" ILIKE ${pattern} OR v."relativePath" ILIKE ${pattern} OR v."prompt" ILIKE ${pattern})
      ORDER BY v."fileName", v."id" LIMIT ${SEARCH_LIMIT + 1}`),
    prisma.$queryRaw<{ id: string; name: string; archivedAt: Date | null }[]>(Prisma.sql`
      SELECT q."id", q."name", q."archivedAt" FROM "review_queue" q
      WHERE q."projectId" = ${projectId} AND q."name" ILIKE ${pattern}
      ORDER BY q."createdAt" DESC, q."id" DESC LIMIT ${SEARCH_LIMIT + 1}`),
    // A run's name is composed (lib/run-records/run-name.ts), not stored: every word of the search must be in it.
    prisma.judgeRun.findMany({
      where: { projectId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: {
        id: true,
        pipeline: true,
        createdAt: true,
        endpointSnapshot: true,
        endpoint: { select: { name: true, model: true } },
      },
    }),
  ]);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const catalogue = await catalogFor(prisma, projectId);
  const namedRuns = runs
    .map((r) => ({ id: r.id, pipeline: r.pipeline, name: runNameOfRow(r, catalogue) }))
    .filter((r) => {
      const haystack = `${r.name} ${r.pipeline}`.toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
  const truncated: ProjectSearchResult["truncated"] = [];
  if (videos.length > SEARCH_LIMIT) truncated.push("videos");
  if (namedRuns.length > SEARCH_LIMIT) truncated.push("runs");
  if (queues.length > SEARCH_LIMIT) truncated.push("queues");
  return {
    query,
    videos: videos.slice(0, SEARCH_LIMIT),
    runs: namedRuns.slice(0, SEARCH_LIMIT),
    queues: queues.slice(0, SEARCH_LIMIT).map((q) => ({ id: q.id, name: q.name, archived: q.archivedAt !== null })),
    truncated,
  };
}
