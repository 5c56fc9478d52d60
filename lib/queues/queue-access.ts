import { Prisma, type PrismaClient, type ReviewQueue } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess, type ProjectAction } from "../authz/permissions";
import { NotFoundError } from "../errors";

/** A claim nobody submitted within this many minutes no longer holds the item's place. */
export const CLAIM_TTL_MINUTES = 30;

export const liveSince = Prisma.sql`now() - make_interval(mins => ${CLAIM_TTL_MINUTES})`;

export async function queueForActor(
  prisma: PrismaClient,
  actor: Actor,
  queueId: string,
  action: ProjectAction,
): Promise<ReviewQueue> {
  const queue = await prisma.reviewQueue.findUnique({ where: { id: queueId } });
  if (!queue) throw new NotFoundError("No such queue.");
  try {
    await requireProjectAccess(prisma, actor, queue.projectId, action);
  } catch (error) {
    throw error instanceof NotFoundError ? new NotFoundError("No such queue.") : error;
  }
  return queue;
}

export async function assignedItem(prisma: PrismaClient, actor: Actor, queueId: string, itemId: string) {
  // The item and the caller's assignment are read beside the permission check (nothing is returned before it passes).
  const [queue, item, assignment] = await Promise.all([
    queueForActor(prisma, actor, queueId, "scores.review"),
    prisma.reviewQueueItem.findFirst({ where: { id: itemId, queueId } }),
    prisma.reviewQueueAssignment.findUnique({ where: { itemId_reviewerId: { itemId, reviewerId: actor.userId } } }),
  ]);
  if (!item) throw new NotFoundError("No such item in this queue.");
  if (!assignment) throw new NotFoundError("This item is not assigned to you: ask the queue for your next item.");
  return { queue, item, assignment };
}
