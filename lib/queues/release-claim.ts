import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { queueInProject } from "./queue-access";

/**
 * Lets go of one of the reviewer's unsubmitted claims (the review screen releases its claim ahead when the
 * reviewer leaves), so the item's place goes to someone else at once instead of after CLAIM_TTL_MINUTES.
 * Judgments already saved stay. A submitted item is not released.
 */
export async function releaseClaim(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  queueId: string,
  itemId: string,
): Promise<{ released: boolean }> {
  const { actor } = access;
  await queueInProject(prisma, access, queueId);
  const { count } = await prisma.reviewQueueAssignment.deleteMany({
    where: { itemId, queueId, reviewerId: actor.userId, status: "claimed" },
  });
  return { released: count > 0 };
}
