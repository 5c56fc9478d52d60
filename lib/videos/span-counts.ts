/**
 * How many spans that count (not withdrawn) a project and its videos have, by who marked them: people (reviewers and
 * label sets' annotators), judge runs, the gold. Counts only, no span's place or label. The video list's filter on
 * spans and its spans column read the span table through its (videoId, …) index, one lookup per listed video; the
 * project's counts through its (projectId, …) index.
 */
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import type { SpanAuthorFilter } from "./span-author-filter";

export interface SpanCounts {
  /** Reviewers' spans and label sets' (imported annotators'). */
  people: number;
  /** Judge runs' spans. */
  judge: number;
  /** Adjudicated gold spans. */
  gold: number;
}

const AUTHOR_KINDS: Record<SpanAuthorFilter, readonly string[]> = {
  any: ["reviewer", "label_set", "judge", "gold"],
  people: ["reviewer", "label_set"],
  judge: ["judge"],
};

/** The video `v` has a span that counts by an author of the chosen kind. */
export function hasSpansCondition(filter: SpanAuthorFilter): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM "span" sp WHERE sp."videoId" = v."id" AND NOT sp."withdrawn" AND sp."authorKind" = ANY(${[...AUTHOR_KINDS[filter]]}::"SpanAuthorKind"[]))`;
}

type CountRow = { id: string } & SpanCounts;

const COUNTS = Prisma.sql`count(*) FILTER (WHERE sp."authorKind" IN ('reviewer', 'label_set'))::int AS "people",
  count(*) FILTER (WHERE sp."authorKind" = 'judge')::int AS "judge",
  count(*) FILTER (WHERE sp."authorKind" = 'gold')::int AS "gold"`;

/** Each listed video's span counts (a video without spans: zeros), one grouped read over those videos only. */
export async function videoSpanCounts(
  prisma: PrismaClient,
  videoIds: readonly string[],
): Promise<Map<string, SpanCounts>> {
  const counts = new Map<string, SpanCounts>(videoIds.map((id) => [id, { people: 0, judge: 0, gold: 0 }]));
  if (videoIds.length === 0) return counts;
  const rows = await prisma.$queryRaw<CountRow[]>`
    SELECT sp."videoId" AS "id", ${COUNTS} FROM "span" sp
    WHERE sp."videoId" = ANY(${[...videoIds]}::text[]) AND NOT sp."withdrawn" GROUP BY sp."videoId"`;
  for (const { id, ...row } of rows) counts.set(id, row);
  return counts;
}

/** The project's span counts, for its overview (members: `project.view`). */
export async function projectSpanCounts(prisma: PrismaClient, access: ProjectAccess): Promise<SpanCounts> {
  const { projectId } = access;
  const [row] = await prisma.$queryRaw<SpanCounts[]>`
    SELECT ${COUNTS} FROM "span" sp WHERE sp."projectId" = ${projectId} AND NOT sp."withdrawn"`;
  return row ?? { people: 0, judge: 0, gold: 0 };
}
