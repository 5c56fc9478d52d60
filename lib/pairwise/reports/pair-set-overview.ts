import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import type { ActivePlan } from "../active/active.types";
import { judgeRunsOfSet, readPairSetHeader } from "./pair-set-votes";
import { planNextPairs } from "../active/plan-next-pairs";
import { loadVotes } from "../votes";
import { loadJudgeTrust, type AspectTrust } from "../judge/judge-trust";
import type { PairSetHeader } from "./reports.types";

export interface PairSetListRow {
  id: string;
  name: string;
  pairs: number;
  /** Pairs that have all the reviewers the set asks for. */
  done: number;
  verdicts: number;
  runs: number;
  createdAt: Date;
  archivedAt: Date | null;
}

/** The project's pair sets, newest first, with their pairs, done pairs, verdicts (not withdrawn) and judge runs. */
export async function pairSetList(prisma: PrismaClient, access: ProjectAccess): Promise<PairSetListRow[]> {
  const sets = await prisma.pairSet.findMany({
    where: { projectId: access.projectId },
    select: {
      id: true,
      name: true,
      pairCount: true,
      reviewersPerPair: true,
      createdAt: true,
      archivedAt: true,
      _count: { select: { runs: true } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  const ids = sets.map((set) => set.id);
  const [verdicts, done] = await Promise.all([
    prisma.pairVerdict.groupBy({
      by: ["pairSetId"],
      where: { projectId: access.projectId, pairSetId: { in: ids }, withdrawn: false },
      _count: { _all: true },
    }),
    donePairs(prisma, access, ids),
  ]);
  const verdictsOf = new Map(verdicts.map((row) => [row.pairSetId, row._count._all]));
  return sets.map((set) => ({
    id: set.id,
    name: set.name,
    pairs: set.pairCount,
    done: done.get(set.id) ?? 0,
    verdicts: verdictsOf.get(set.id) ?? 0,
    runs: set._count.runs,
    createdAt: set.createdAt,
    archivedAt: set.archivedAt,
  }));
}

async function donePairs(prisma: PrismaClient, access: ProjectAccess, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await prisma.$queryRaw<{ pairSetId: string; done: bigint }[]>(Prisma.sql`
    SELECT p."pairSetId", count(*) AS done
    FROM pair p JOIN pair_set s ON s.id = p."pairSetId"
    WHERE s."projectId" = ${access.projectId} AND p."pairSetId" IN (${Prisma.join(ids)})
      AND p."doneCount" >= s."reviewersPerPair"
    GROUP BY p."pairSetId"`);
  return new Map(rows.map((row) => [row.pairSetId, Number(row.done)]));
}

export interface PairSetOverview {
  pairSet: PairSetHeader & { reviewersPerPair: number; archivedAt: Date | null };
  pairs: number;
  done: number;
  honeypotPairs: number;
  /** People's verdicts per aspect (the set's aspects, in order). */
  progress: { aspect: string; label: string; verdicts: number }[];
  runs: { id: string; label: string; status: string; trust: AspectTrust[] }[];
  /** The next pairs for people and judges, by the active plan. */
  plan: ActivePlan;
}

/** A pair set's page: its aspects and progress, its judge runs with their trust figures, and the next pairs to ask. */
export async function pairSetOverview(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
  options: { next: number },
): Promise<PairSetOverview> {
  const header = await readPairSetHeader(prisma, access, pairSetId);
  const [set, runs, votes, candidates, perAspect, honeypotPairs, done] = await Promise.all([
    prisma.pairSet.findFirstOrThrow({
      where: { id: pairSetId, projectId: access.projectId },
      select: { reviewersPerPair: true, archivedAt: true, pairCount: true },
    }),
    runsWithTrust(prisma, access, pairSetId),
    loadVotes(prisma, access, { pairSetId }),
    prisma.pair.findMany({
      where: { projectId: access.projectId, pairSetId, honeypot: { equals: Prisma.DbNull } },
      select: { id: true, prompt: true, generatorA: true, generatorB: true, doneCount: true },
      orderBy: { position: "asc" },
    }),
    prisma.pairVerdict.groupBy({
      by: ["aspect"],
      where: { projectId: access.projectId, pairSetId, raterKind: "reviewer", withdrawn: false },
      _count: { _all: true },
    }),
    prisma.pair.count({
      where: { projectId: access.projectId, pairSetId, NOT: { honeypot: { equals: Prisma.DbNull } } },
    }),
    donePairs(prisma, access, [pairSetId]),
  ]);
  const counts = new Map(perAspect.map((row) => [row.aspect, row._count._all]));
  const people = votes.filter((vote) => vote.raterKind === "reviewer" && !vote.honeypot);
  // The plan picks among the pairs that still need reviewers; the votes it weighs are people's on every pair.
  const open = candidates.filter((pair) => pair.doneCount < set.reviewersPerPair);
  const plan = planNextPairs(
    people,
    open.map(({ id, prompt, generatorA, generatorB }) => ({ prompt, generatorA, generatorB, pairId: id })),
    { n: options.next, rule: "variance_reduction" },
  );
  return {
    pairSet: { ...header, reviewersPerPair: set.reviewersPerPair, archivedAt: set.archivedAt },
    pairs: set.pairCount,
    done: done.get(pairSetId) ?? 0,
    honeypotPairs,
    progress: header.aspects.map((aspect) => ({
      aspect: aspect.id,
      label: aspect.label,
      verdicts: counts.get(aspect.id) ?? 0,
    })),
    runs,
    plan,
  };
}

async function runsWithTrust(prisma: PrismaClient, access: ProjectAccess, pairSetId: string) {
  const [runs, statuses] = await Promise.all([
    judgeRunsOfSet(prisma, access, pairSetId),
    prisma.judgeRun.findMany({ where: { projectId: access.projectId, pairSetId }, select: { id: true, status: true } }),
  ]);
  const statusOf = new Map(statuses.map((run) => [run.id, run.status as string]));
  return Promise.all(
    runs.map(async (run) => ({
      ...run,
      status: statusOf.get(run.id) ?? "",
      trust: (await loadJudgeTrust(prisma, access, run.id)).aspects,
    })),
  );
}
