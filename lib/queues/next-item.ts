import type { Prisma, PrismaClient, ReviewQueue } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { liveSince, queueInProject } from "./queue-access";
import { assertMayClaim } from "./queue-states";

/**
 * The caller's next item. Under a per-queue advisory lock, in one transaction: their own open claim
 * if they hold one (a stale one only while the item still has room), else a claim on the first item
 * in the queue's hand-out order (`claimFreeItem`) that they have not had and whose doneCount plus others'
 * live claims is below reviewersPerItem. Claims older than CLAIM_TTL_MINUTES no longer hold a place. Null when
 * nothing is left for them.
 */
export async function nextItem(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  queueId: string,
): Promise<{ itemId: string | null }> {
  const { actor } = access;
  const queue = await queueInProject(prisma, access, queueId);
  // Archived (400) or assigned to other reviewers (403): no claim.
  assertMayClaim(queue, actor.userId);
  const me = actor.userId;
  const n = queue.reviewersPerItem;
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`review_queue:${queue.id}`}, 0))`;
      const own = await tx.$queryRaw<{ itemId: string; live: boolean; room: boolean }[]>`
        SELECT a."itemId", a."claimedAt" > ${liveSince} AS live,
          i."doneCount" + (SELECT count(*) FROM "review_queue_assignment" o
                           WHERE o."itemId" = a."itemId" AND o."reviewerId" <> ${me} AND o."status" = 'claimed' AND o."claimedAt" > ${liveSince}) < ${n} AS room
        FROM "review_queue_assignment" a JOIN "review_queue_item" i ON i."id" = a."itemId"
        WHERE a."queueId" = ${queue.id} AND a."reviewerId" = ${me} AND a."status" = 'claimed'
        ORDER BY a."claimedAt" ASC, a."itemId" ASC`;
      for (const claim of own) {
        if (claim.live) return { itemId: claim.itemId };
        if (claim.room) {
          await tx.reviewQueueAssignment.update({
            where: { itemId_reviewerId: { itemId: claim.itemId, reviewerId: me } },
            data: { claimedAt: new Date() },
          });
          return { itemId: claim.itemId };
        }
        // The item filled up while this claim was stale: let it go.
        await tx.reviewQueueAssignment.delete({
          where: { itemId_reviewerId: { itemId: claim.itemId, reviewerId: me } },
        });
      }
      return { itemId: await claimFreeItem(tx, queue, me) };
    },
    { maxWait: 10_000, timeout: 20_000 },
  );
}

/**
 * Inside the queue's advisory lock: a claim on the first item, in the queue's hand-out order, that the reviewer
 * has not had and whose doneCount plus others' live claims (claims ahead included) is below reviewersPerItem.
 * "overlap": by position alone, so reviewers of a queue of 2+ reviewers per item meet on the same items from the
 * start and their agreement can be measured early; "coverage": by (doneCount, position), so every item gets its
 * first reviewer before any gets a second.
 */
export async function claimFreeItem(
  tx: Prisma.TransactionClient,
  queue: ReviewQueue,
  me: string,
): Promise<string | null> {
  const n = queue.reviewersPerItem;
  const coverage = queue.handOut === "coverage";
  const [candidate] = await tx.$queryRaw<{ id: string }[]>`
    SELECT i."id" FROM "review_queue_item" i
    WHERE i."queueId" = ${queue.id}
      AND i."doneCount" < ${n}
      AND NOT EXISTS (SELECT 1 FROM "review_queue_assignment" a WHERE a."itemId" = i."id" AND a."reviewerId" = ${me})
      AND i."doneCount" + (SELECT count(*) FROM "review_queue_assignment" a
                           WHERE a."itemId" = i."id" AND a."status" = 'claimed' AND a."claimedAt" > ${liveSince}) < ${n}
    ORDER BY CASE WHEN ${coverage} THEN i."doneCount" ELSE 0 END ASC, i."position" ASC
    LIMIT 1`;
  if (!candidate) return null;
  await tx.reviewQueueAssignment.create({ data: { itemId: candidate.id, queueId: queue.id, reviewerId: me } });
  return candidate.id;
}
