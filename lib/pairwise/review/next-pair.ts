import type { PairSet, Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import { assertMayReview, pairClaimLiveSince, pairSetInProject } from "./review-access";
import { drawSide, pairForReview, reviewProgress } from "./pair-view";
import type { NextPairResponse, PairForReview } from "./review.types";

/**
 * The reviewer's next pair. Under a per-set advisory lock, in one transaction: their own open claim if they hold one
 * (so a reload shows the same pair, sides as drawn), else a claim on the first pair by position that they have not
 * had and whose doneCount plus others' live claims is below reviewersPerPair. The side video A is shown on is drawn
 * at the claim and stored on it. `pair` is null when nothing is left for them.
 */
export async function nextPair(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  pairSetId: string,
): Promise<NextPairResponse> {
  const me = access.actor.userId;
  const set = await pairSetInProject(prisma, access, pairSetId);
  assertMayReview(set, me);
  const pair = await prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`pair_set:${set.id}`}, 0))`;
      const own = await tx.pairAssignment.findFirst({
        where: { pairSetId: set.id, reviewerId: me, status: "claimed" },
        orderBy: [{ claimedAt: "asc" }, { pairId: "asc" }],
      });
      const pairId = own?.pairId ?? (await claimFreePair(tx, set, me));
      if (!pairId) return null;
      return viewOfClaim(tx, set, pairId, me);
    },
    { maxWait: 10_000, timeout: 20_000 },
  );
  return { pair, progress: await reviewProgress(prisma, set.id, me) };
}

/** A pair this reviewer claimed (open or submitted), to show again or edit. */
export async function getPairForReview(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  pairSetId: string,
  pairId: string,
): Promise<PairForReview> {
  const set = await pairSetInProject(prisma, access, pairSetId);
  return viewOfClaim(prisma, set, pairId, access.actor.userId);
}

async function viewOfClaim(
  prisma: PrismaClient | Prisma.TransactionClient,
  set: PairSet,
  pairId: string,
  me: string,
): Promise<PairForReview> {
  const claim = await prisma.pairAssignment.findUnique({
    where: { pairId_reviewerId: { pairId, reviewerId: me } },
    include: { pair: true },
  });
  if (!claim || claim.pairSetId !== set.id) throw new NotFoundError("You hold no such pair in this set.");
  return pairForReview(prisma, set, claim.pair, claim, me);
}

/**
 * Inside the set's advisory lock: claims the first pair by position the reviewer has not had that still needs
 * reviewers. The claim is an upsert on its key, so a second tab of the same reviewer meets the same claim (and its
 * side) rather than a duplicate.
 */
async function claimFreePair(tx: Prisma.TransactionClient, set: PairSet, me: string): Promise<string | null> {
  const n = set.reviewersPerPair;
  const [candidate] = await tx.$queryRaw<{ id: string }[]>`
    SELECT p."id" FROM "pair" p
    WHERE p."pairSetId" = ${set.id}
      AND p."doneCount" < ${n}
      AND NOT EXISTS (SELECT 1 FROM "pair_assignment" a WHERE a."pairId" = p."id" AND a."reviewerId" = ${me})
      AND p."doneCount" + (SELECT count(*) FROM "pair_assignment" a
                           WHERE a."pairId" = p."id" AND a."status" = 'claimed'
                             AND a."claimedAt" > ${pairClaimLiveSince}) < ${n}
    ORDER BY p."position" ASC
    LIMIT 1`;
  if (!candidate) return null;
  await tx.pairAssignment.upsert({
    where: { pairId_reviewerId: { pairId: candidate.id, reviewerId: me } },
    create: { pairId: candidate.id, pairSetId: set.id, reviewerId: me, aShownOn: drawSide() },
    update: {},
  });
  return candidate.id;
}

/** Lets go of the reviewer's unsubmitted claim on a pair (a submitted one is kept) → whether it was released. */
export async function releasePair(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  pairSetId: string,
  pairId: string,
): Promise<{ released: boolean }> {
  const set = await pairSetInProject(prisma, access, pairSetId);
  const { count } = await prisma.pairAssignment.deleteMany({
    where: { pairId, pairSetId: set.id, reviewerId: access.actor.userId, status: "claimed" },
  });
  return { released: count > 0 };
}
