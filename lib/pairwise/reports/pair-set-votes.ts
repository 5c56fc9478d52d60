import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { WithheldError } from "../../visibility/withheld";
import { runDate, runEndpointOfRow, runJudgeName } from "../../run-records/run-name";
import { aspectListSchema, type Aspect } from "../aspects";
import type { Vote } from "../verdicts";
import { pairwiseEnsembleKind } from "../judge/pairwise-settings";
import type { PairSetHeader, RaterChoice } from "./reports.types";

/** The pair set of the caller's project, or NotFound (a set of another project is not found). */
export async function readPairSetHeader(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
): Promise<PairSetHeader> {
  const set = await prisma.pairSet.findFirst({
    where: { id: pairSetId, projectId: access.projectId },
    select: { id: true, name: true, aspects: true, blind: true, votesPerPromptCap: true },
  });
  if (!set) throw new NotFoundError("No such pair set.");
  const aspects = aspectListSchema.safeParse(set.aspects);
  return { ...set, aspects: aspects.success ? aspects.data : [] };
}

/**
 * What "overall" reads: the set's own aspect of that id when it has one; otherwise every aspect's votes pooled. Any
 * other id must be one of the set's aspects (a 400 otherwise: an unknown aspect is never an empty board).
 */
export function boardAspect(
  aspects: readonly Aspect[],
  aspectId: string,
): { id: string; label: string; pooled: boolean } {
  const own = aspects.find((aspect) => aspect.id === aspectId);
  if (own) return { id: own.id, label: own.label, pooled: false };
  if (aspectId === "overall") return { id: "overall", label: "Overall (every aspect pooled)", pooled: true };
  throw new ValidationError(
    `This pair set has no aspect "${aspectId}"; it has ${aspects.map((a) => a.id).join(", ") || "none"}.`,
  );
}

export function votesOfAspect(votes: readonly Vote[], aspect: { id: string; pooled: boolean }): Vote[] {
  return aspect.pooled ? [...votes] : votes.filter((vote) => vote.aspect === aspect.id);
}

/** The votes a rater choice counts: people are reviewers; "all" is every reviewer, judge run and label set (not the gold). */
export function votesOfRaters(votes: readonly Vote[], raters: RaterChoice): Vote[] {
  if (raters === "people") return votes.filter((vote) => vote.raterKind === "reviewer");
  if (raters === "gold") return votes.filter((vote) => vote.raterKind === "gold");
  if (raters === "all") return votes.filter((vote) => vote.raterKind !== "gold");
  if (raters.startsWith("labelset:")) {
    const id = raters.slice("labelset:".length);
    return votes.filter(
      (vote) =>
        vote.raterKind === "label_set" &&
        (vote.raterId === `labelset:${id}` || vote.raterId.startsWith(`labelset:${id}:`)),
    );
  }
  const raterId = `run:${raters.slice("judge:".length)}`;
  return votes.filter((vote) => vote.raterKind === "judge" && vote.raterId === raterId);
}

/**
 * The pairwise judge runs of the set, oldest first, each named by its judge and start; a run of samples or a panel,
 * and each of its members, say so (a panel's first judge and the panel would read alike otherwise).
 */
export async function judgeRunsOfSet(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
): Promise<{ id: string; label: string }[]> {
  const runs = await prisma.judgeRun.findMany({
    where: { projectId: access.projectId, pairSetId },
    select: {
      id: true,
      createdAt: true,
      endpointSnapshot: true,
      endpoint: { select: { name: true, model: true } },
      ensemble: true,
      parentRunId: true,
      memberIndex: true,
    },
    orderBy: [{ createdAt: "asc" }, { memberIndex: "asc" }, { id: "asc" }],
  });
  const parentKind = new Map(runs.map((run) => [run.id, pairwiseEnsembleKind(run.ensemble)]));
  const memberCount = (parentId: string) => runs.filter((run) => run.parentRunId === parentId).length;
  return runs.map((run) => {
    const { endpointName, model } = runEndpointOfRow(run);
    const what = runWhat(runJudgeName(endpointName, model), {
      kind: parentKind.get(run.id) ?? null,
      members: memberCount(run.id),
      inParent: run.parentRunId ? (parentKind.get(run.parentRunId) ?? null) : null,
      memberIndex: run.memberIndex ?? 0,
    });
    return { id: run.id, label: `${what} · ${runDate(run.createdAt)}` };
  });
}

/**
 * What a run of the set is: its judge alone, a run of samples, or one member of either. A panel is its judge alone:
 * runEndpointOfRow already names it by its judges.
 */
function runWhat(
  judge: string,
  run: { kind: "samples" | "panel" | null; members: number; inParent: "samples" | "panel" | null; memberIndex: number },
): string {
  if (run.kind === "samples") return `${judge} × ${run.members} samples`;
  if (run.inParent === "panel") return `${judge} (in a panel)`;
  if (run.inParent === "samples") return `${judge} (sample ${run.memberIndex + 1})`;
  return judge;
}

/** The label sets whose verdicts the set holds, oldest first, by name. */
export async function labelSetsOfSet(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
): Promise<{ id: string; label: string }[]> {
  const used = await prisma.pairVerdict.findMany({
    where: { projectId: access.projectId, pairSetId, labelSetId: { not: null } },
    select: { labelSetId: true },
    distinct: ["labelSetId"],
  });
  const sets = await prisma.labelSet.findMany({
    where: { projectId: access.projectId, id: { in: used.flatMap((row) => (row.labelSetId ? [row.labelSetId] : [])) } },
    select: { id: true, name: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return sets.map((set) => ({ id: set.id, label: set.name }));
}

/**
 * Names for rater ids: people by name (else email), judge runs by their judge, label sets by name (and annotator),
 * the gold as "Gold".
 */
export async function raterNames(
  prisma: PrismaClient,
  access: ProjectAccess,
  raterIds: readonly string[],
  judgeRuns: readonly { id: string; label: string }[],
): Promise<Record<string, string>> {
  const names: Record<string, string> = Object.create(null) as Record<string, string>;
  const userIds = raterIds.filter((id) => !id.includes(":") && id !== "gold");
  const members = await prisma.projectMember.findMany({
    where: { projectId: access.projectId, userId: { in: userIds } },
    select: { userId: true, user: { select: { name: true, email: true } } },
  });
  for (const member of members) names[member.userId] = member.user.name || member.user.email;
  for (const run of judgeRuns) names[`run:${run.id}`] = run.label;
  const labelIds = raterIds.filter((id) => id.startsWith("labelset:"));
  const labelSets = await prisma.labelSet.findMany({
    where: { projectId: access.projectId, id: { in: labelIds.map((id) => id.split(":")[1]!) } },
    select: { id: true, name: true },
  });
  const labelSetName = new Map(labelSets.map((set) => [set.id, set.name]));
  for (const id of labelIds) {
    const [, setId, ...annotator] = id.split(":");
    const name = labelSetName.get(setId!) ?? setId!;
    names[id] = annotator.length ? `${name} · ${annotator.join(":")}` : name;
  }
  for (const id of raterIds)
    names[id] ??= id === "gold" ? "Gold" : id.startsWith("run:") ? "a deleted judge run" : "a former member";
  return names;
}

/** The generators of the set's pairs that are not honeypots, and how many honeypot pairs it holds. */
export async function setGenerators(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
): Promise<{ generators: string[]; honeypotPairs: number }> {
  const [sides, honeypotPairs] = await Promise.all([
    prisma.pair.findMany({
      where: { projectId: access.projectId, pairSetId, honeypot: { equals: Prisma.DbNull } },
      select: { generatorA: true, generatorB: true },
      distinct: ["generatorA", "generatorB"],
    }),
    prisma.pair.count({
      where: { projectId: access.projectId, pairSetId, NOT: { honeypot: { equals: Prisma.DbNull } } },
    }),
  ]);
  const generators = [...new Set(sides.flatMap((pair) => [pair.generatorA, pair.generatorB]))].sort();
  return { generators, honeypotPairs };
}

/**
 * A blind set's boards are withheld from a reviewer who has started reviewing it and has pairs left there (claimed,
 * or still needing reviewers and not done by them), as blind queues withhold a run's aggregates: the whole view or
 * none, so no number differs with who looks; it shows once they have submitted their pairs.
 */
export async function requireWholePairSet(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSet: PairSetHeader,
  what: string,
): Promise<void> {
  if (!pairSet.blind) return;
  const userId = access.actor.userId;
  const started = await prisma.pairAssignment.count({ where: { pairSetId: pairSet.id, reviewerId: userId } });
  if (started === 0) return;
  const [{ left }] = (await prisma.$queryRaw<{ left: bigint }[]>(Prisma.sql`
    SELECT count(*) AS left FROM pair p JOIN pair_set s ON s.id = p."pairSetId"
    WHERE p."pairSetId" = ${pairSet.id}
      AND NOT EXISTS (SELECT 1 FROM pair_assignment a WHERE a."pairId" = p.id AND a."reviewerId" = ${userId} AND a.status = 'done')
      AND (p."doneCount" < s."reviewersPerPair"
        OR EXISTS (SELECT 1 FROM pair_assignment a WHERE a."pairId" = p.id AND a."reviewerId" = ${userId} AND a.status = 'claimed'))`)) as [
    { left: bigint },
  ];
  const itemsLeft = Number(left);
  if (itemsLeft > 0)
    throw new WithheldError(what, {
      queues: [{ id: pairSet.id, name: pairSet.name, itemsLeft }],
      blindVideos: itemsLeft,
    });
}
