import { Prisma, type PrismaClient, type ReviewQueue } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { NotFoundError } from "../errors";

/** A claim nobody submitted within this many minutes no longer holds the item's place. */
export const CLAIM_TTL_MINUTES = 30;

export const liveSince = Prisma.sql`now() - make_interval(mins => ${CLAIM_TTL_MINUTES})`;

/** The queue, if it is of the access's project: a queue of another project is not found, as a missing one. */
export async function queueInProject(
  prisma: PrismaClient,
  access: ProjectAccess,
  queueId: string,
): Promise<ReviewQueue> {
  const queue = await prisma.reviewQueue.findFirst({ where: { id: queueId, projectId: access.projectId } });
  if (!queue) throw new NotFoundError("No such queue.");
  return queue;
}

export async function assignedItem(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  queueId: string,
  itemId: string,
) {
  const { actor } = access;
  // The item and the caller's assignment are read beside the queue (nothing is returned before it is found).
  const [queue, item, assignment] = await Promise.all([
    queueInProject(prisma, access, queueId),
    prisma.reviewQueueItem.findFirst({ where: { id: itemId, queueId } }),
    prisma.reviewQueueAssignment.findUnique({ where: { itemId_reviewerId: { itemId, reviewerId: actor.userId } } }),
  ]);
  if (!item) throw new NotFoundError("No such item in this queue.");
  if (!assignment) throw new NotFoundError("This item is not assigned to you: ask the queue for your next item.");
  return { queue, item, assignment };
}
