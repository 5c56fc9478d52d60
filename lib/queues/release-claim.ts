import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { queueForActor } from "./queue-access";

/**
 * Lets go of one of the reviewer's unsubmitted claims (the review screen releases its claim ahead when the
 * reviewer leaves), so the item's place goes to someone else at once instead of after CLAIM_TTL_MINUTES.
 * Judgments already saved stay. A submitted item is not released.
 */
export async function releaseClaim(
  prisma: PrismaClient,
  actor: Actor,
  queueId: string,
  itemId: string,
): Promise<{ released: boolean }> {
  await queueForActor(prisma, actor, queueId, "scores.review");
  const { count } = await prisma.reviewQueueAssignment.deleteMany({
    where: { itemId, queueId, reviewerId: actor.userId, status: "claimed" },
  });
  return { released: count > 0 };
}
