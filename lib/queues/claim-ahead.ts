import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError, ValidationError } from "../errors";
import { claimFreeItem } from "./next-item";
import { liveSince, queueInProject } from "./queue-access";

/**
 * Unsubmitted live claims a reviewer may hold in one queue: the item on screen, the two claimed ahead of it (the
 * review screen loads two ahead, so a slow answer does not hold up a fast reviewer), and the item before them
 * whose submission may still be on its way.
 */
export const MAX_OPEN_CLAIMS = 4;

/**
 * Claims ahead: while the reviewer works on `currentItemId`, the item they will get after it, so the review
 * screen can load it (frames included) before Enter. It is an ordinary claim, taken after the current one:
 * it counts toward reviewersPerItem for everyone, expires like any claim, keeps its video blind to them in a
 * blind queue until they submit it, and is what `nextItem` hands them once the current one is submitted.
 * Returns their live claim taken after the current one if they hold one, else a new claim (none when
 * nothing is left, or when they already hold MAX_OPEN_CLAIMS unsubmitted claims).
 */
export async function claimAhead(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  queueId: string,
  currentItemId: string,
): Promise<{ itemId: string | null }> {
  const { actor } = access;
  const queue = await queueInProject(prisma, access, queueId);
  if (queue.archivedAt) throw new ValidationError("This queue is archived.");
  const me = actor.userId;
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`review_queue:${queue.id}`}, 0))`;
      const current = await tx.reviewQueueAssignment.findUnique({
        where: { itemId_reviewerId: { itemId: currentItemId, reviewerId: me } },
      });
      if (!current || current.queueId !== queue.id)
        throw new NotFoundError("This item is not assigned to you: ask the queue for your next item.");
      const open = await tx.$queryRaw<{ itemId: string; claimedAt: Date }[]>`
        SELECT a."itemId", a."claimedAt" FROM "review_queue_assignment" a
        WHERE a."queueId" = ${queue.id} AND a."reviewerId" = ${me} AND a."status" = 'claimed' AND a."claimedAt" > ${liveSince}
        ORDER BY a."claimedAt" ASC, a."itemId" ASC`;
      // Claims are handed out in (claimedAt, itemId) order: the one after the current item is the one ahead.
      const at = current.claimedAt.getTime();
      const ahead = open.find(
        (claim) => claim.claimedAt.getTime() > at || (claim.claimedAt.getTime() === at && claim.itemId > currentItemId),
      );
      if (ahead) return { itemId: ahead.itemId };
      if (open.length >= MAX_OPEN_CLAIMS) return { itemId: null };
      return { itemId: await claimFreeItem(tx, queue, me) };
    },
    { maxWait: 10_000, timeout: 20_000 },
  );
}
