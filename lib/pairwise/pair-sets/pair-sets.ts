import { z } from "zod";
import type { ProjectAccess } from "../../authz/permissions";
import { isPrismaError, UNIQUE_VIOLATION } from "../../db/prisma-errors";
import { AppError, ConflictError, NotFoundError, ValidationError } from "../../errors";
import { type PairSet, Prisma, type PrismaClient } from "../../generated/prisma/client";
import { aspectSchema, type Aspect } from "../aspects";
import { RATER_KINDS, type RaterKind } from "../verdicts";
import { honeypotOf } from "./honeypot-pairs";
import {
  type PairListAnswer,
  type PairRow,
  type PairSetDetail,
  type PairSetChange,
  type PairSetOrigin,
  pairSetOriginSchema,
  type PairSetSummary,
  type listPairSetsQuerySchema,
  type listPairsQuerySchema,
} from "./pair-sets.types";

/** A set's stored aspects, read back (written by createPairSet or an import, both through aspectListSchema). */
export function aspectsOf(stored: unknown): Aspect[] {
  return z.array(aspectSchema).parse(stored);
}

/**
 * The set as lists show it. `reader`: who reads it; a reviewer of a blind set does not see the generators its maker
 * chose (origin.generators).
 */
export function pairSetSummary(row: PairSet, reader?: ProjectAccess): PairSetSummary {
  const origin: PairSetOrigin = pairSetOriginSchema.parse(row.origin);
  if (row.blind && reader?.role === "reviewer" && origin.source === "project") delete origin.generators;
  return {
    id: row.id,
    name: row.name,
    aspects: aspectsOf(row.aspects),
    origin,
    crossPrompt: row.crossPrompt,
    blind: row.blind,
    reviewersPerPair: row.reviewersPerPair,
    assigneeIds: row.assigneeIds,
    guidelines: row.guidelines,
    votesPerPromptCap: row.votesPerPromptCap,
    pairCount: row.pairCount,
    createdById: row.createdById,
    createdAt: row.createdAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
  };
}

/** The set, if it is in the caller's project; else NotFound (the same answer for another project's set). */
export async function findPairSet(prisma: PrismaClient, access: ProjectAccess, pairSetId: string): Promise<PairSet> {
  const set = await prisma.pairSet.findFirst({ where: { id: pairSetId, projectId: access.projectId } });
  if (!set) throw new NotFoundError("No such pair set.");
  return set;
}

/** The project's pair sets, newest first. */
export async function listPairSets(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: z.output<typeof listPairSetsQuerySchema> = { archived: "exclude" },
): Promise<PairSetSummary[]> {
  const archivedAt = { include: undefined, exclude: null, only: { not: null } }[query.archived];
  const rows = await prisma.pairSet.findMany({
    where: { projectId: access.projectId, ...(archivedAt === undefined ? {} : { archivedAt }) },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return rows.map((row) => pairSetSummary(row, access));
}

async function verdictsPerAspect(prisma: PrismaClient, set: PairSet) {
  const groups = await prisma.pairVerdict.groupBy({
    by: ["aspect", "raterKind"],
    where: { pairSetId: set.id, withdrawn: false },
    _count: { _all: true },
  });
  const zero = () => Object.fromEntries(RATER_KINDS.map((kind) => [kind, 0])) as Record<RaterKind, number>;
  const byAspect = new Map(aspectsOf(set.aspects).map((aspect) => [aspect.id, zero()]));
  for (const group of groups) {
    const counts = byAspect.get(group.aspect) ?? zero();
    byAspect.set(group.aspect, counts);
    if ((RATER_KINDS as readonly string[]).includes(group.raterKind))
      counts[group.raterKind as RaterKind] += group._count._all;
  }
  return [...byAspect.entries()].map(([aspect, byKind]) => ({
    aspect,
    verdicts: Object.values(byKind).reduce((sum, n) => sum + n, 0),
    byKind,
  }));
}

/** One set with its counts: pairs, honeypots, done pairs, prompts, generators, verdicts per aspect, judge runs. */
export async function getPairSet(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
): Promise<PairSetDetail> {
  const set = await findPairSet(prisma, access, pairSetId);
  const [pairs, honeypots, donePairs, prompts, generators, perAspect, judgeRuns] = await Promise.all([
    prisma.pair.count({ where: { pairSetId } }),
    prisma.pair.count({ where: { pairSetId, honeypot: { not: Prisma.DbNull } } }),
    prisma.pair.count({ where: { pairSetId, doneCount: { gte: set.reviewersPerPair } } }),
    prisma.pair.findMany({ where: { pairSetId }, distinct: ["prompt"], select: { prompt: true } }),
    prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM (
        SELECT "generatorA" FROM pair WHERE "pairSetId" = ${pairSetId}
        UNION SELECT "generatorB" FROM pair WHERE "pairSetId" = ${pairSetId}
      ) AS generators`,
    verdictsPerAspect(prisma, set),
    prisma.judgeRun.count({ where: { pairSetId, projectId: access.projectId } }),
  ]);
  return {
    ...pairSetSummary(set, access),
    counts: {
      pairs,
      honeypots,
      donePairs,
      prompts: prompts.length,
      generators: Number(generators[0]?.n ?? 0),
      verdictsPerAspect: perAspect,
      judgeRuns,
    },
  };
}

/** Refuses assignees who are not members who may review (owners and reviewers): a typo would hide the set's pairs. */
export async function checkAssignees(prisma: PrismaClient, access: ProjectAccess, userIds: readonly string[]) {
  const members = await prisma.projectMember.findMany({
    where: { projectId: access.projectId, userId: { in: [...userIds] }, role: { in: ["owner", "reviewer"] } },
    select: { userId: true },
  });
  const known = new Set(members.map((m) => m.userId));
  const unknown = userIds.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new ValidationError(`not a reviewer of this project: ${unknown.slice(0, 5).join(", ")}.`);
}

/** Changes a set's archived state, name, guidelines, assignees, reviewers per pair or vote cap (owners). */
export async function updatePairSet(
  prisma: PrismaClient,
  access: ProjectAccess<"pairs.manage">,
  pairSetId: string,
  change: PairSetChange,
): Promise<PairSetSummary> {
  const set = await findPairSet(prisma, access, pairSetId);
  const { archived, assigneeIds, ...rest } = change;
  if (assigneeIds) await checkAssignees(prisma, access, assigneeIds);
  const archivedAt =
    archived === undefined || archived === (set.archivedAt !== null) ? undefined : archived ? new Date() : null;
  try {
    const updated = await prisma.pairSet.update({
      where: { id: set.id },
      data: { ...rest, ...(assigneeIds ? { assigneeIds: [...new Set(assigneeIds)] } : {}), archivedAt },
    });
    return pairSetSummary(updated);
  } catch (error) {
    if (isPrismaError(error, UNIQUE_VIOLATION))
      throw new ConflictError(`A pair set named ${JSON.stringify(change.name)} already exists in this project.`);
    throw error;
  }
}

/**
 * Deletes a set with its pairs, verdicts (and their history), claims and the judge runs made on it (owners): the
 * foreign keys cascade, in one statement. A judge run still judging the set must finish or be cancelled first (409):
 * the set's row is locked while runs are checked, so a run starting on it now waits for the answer.
 */
export async function deletePairSet(
  prisma: PrismaClient,
  access: ProjectAccess<"pairs.manage">,
  pairSetId: string,
): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM pair_set WHERE id = ${pairSetId} AND "projectId" = ${access.projectId} FOR UPDATE`;
    if (locked.length === 0) throw new NotFoundError("No such pair set.");
    const busy = await tx.judgeRun.findMany({
      where: { pairSetId, status: { in: ["queued", "running"] } },
      select: { id: true },
    });
    if (busy.length > 0)
      throw new AppError(
        409,
        "run_in_progress",
        `A judge run on this pair set must finish or be cancelled first (${busy.map((run) => run.id).join(", ")}). Nothing was deleted.`,
      );
    await tx.pairSet.delete({ where: { id: pairSetId } });
  });
}

type PairWithVideos = Awaited<ReturnType<typeof readPairPage>>[number];

function readPairPage(prisma: PrismaClient, pairSetId: string, after: number, limit: number) {
  const video = { select: { id: true, status: true, fileName: true } } as const;
  return prisma.pair.findMany({
    where: { pairSetId, position: { gt: after } },
    orderBy: { position: "asc" },
    take: limit,
    include: { videoA: video, videoB: video },
  });
}

/** A side's video as it is now; its file name withheld (often the generator's) from a blind set's reviewer. */
function videoState(video: PairWithVideos["videoA"], hideName: boolean): PairRow["videoA"] {
  return video
    ? { id: video.id, deleted: false, status: video.status, fileName: hideName ? "" : video.fileName }
    : { id: null, deleted: true };
}

/**
 * A page of a set's pairs in position order, each side's video as it is now (a video deleted since shows as deleted;
 * the pair keeps its prompt and generators). While the set is blind, a reviewer sees no generator or video names.
 */
export async function listPairs(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
  query: z.output<typeof listPairsQuerySchema>,
): Promise<PairListAnswer> {
  const set = await findPairSet(prisma, access, pairSetId);
  const hideNames = set.blind && access.role === "reviewer";
  const rows = await readPairPage(prisma, set.id, query.after, query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    pairs: page.map((pair) => ({
      id: pair.id,
      position: pair.position,
      prompt: pair.prompt,
      generatorA: hideNames ? null : pair.generatorA,
      generatorB: hideNames ? null : pair.generatorB,
      nameA: hideNames ? null : pair.nameA,
      nameB: hideNames ? null : pair.nameB,
      videoA: videoState(pair.videoA, hideNames),
      videoB: videoState(pair.videoB, hideNames),
      honeypot: honeypotOf(pair.honeypot),
      doneCount: pair.doneCount,
    })),
    nextAfter: rows.length > query.limit ? page[page.length - 1]!.position : null,
  };
}
