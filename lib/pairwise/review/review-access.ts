import { Prisma, type PairSet, type PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ForbiddenError, NotFoundError, ValidationError } from "../../errors";
import { aspectListSchema, type Aspect } from "../aspects";

/** A claim older than this no longer holds a place for others (the reviewer's own stays theirs to finish). */
export const PAIR_CLAIM_TTL_MINUTES = 30;
export const pairClaimLiveSince = Prisma.sql`now() - make_interval(mins => ${PAIR_CLAIM_TTL_MINUTES})`;

/** The pair set, read within the caller's project (another project's is not found). */
export async function pairSetInProject(
  prisma: PrismaClient | Prisma.TransactionClient,
  access: ProjectAccess,
  pairSetId: string,
): Promise<PairSet> {
  const set = await prisma.pairSet.findFirst({ where: { id: pairSetId, projectId: access.projectId } });
  if (!set) throw new NotFoundError("No such pair set.");
  return set;
}

/** Refuses a claim or save on an archived set (400) or by a reviewer the set is not assigned to (403). */
export function assertMayReview(set: PairSet, userId: string): void {
  if (set.archivedAt) throw new ValidationError("This pair set is archived: its pairs take no more verdicts.");
  if (set.assigneeIds.length > 0 && !set.assigneeIds.includes(userId))
    throw new ForbiddenError("This pair set is assigned to other reviewers.");
}

/** The set's aspects as stored (checked on the way in, so a failure here is a damaged row). */
export function aspectsOf(set: PairSet): Aspect[] {
  return aspectListSchema.parse(set.aspects);
}

/** The set's name (and whether it is archived) for the review page's title, or null when not in the project. */
export async function pairSetTitle(
  prisma: PrismaClient,
  access: ProjectAccess,
  pairSetId: string,
): Promise<{ name: string; archivedAt: Date | null } | null> {
  return prisma.pairSet.findFirst({
    where: { id: pairSetId, projectId: access.projectId },
    select: { name: true, archivedAt: true },
  });
}
