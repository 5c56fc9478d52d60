import type { Actor } from "../../lib/auth/actor";
import { projectAccess, type ProjectAccess, type ProjectAction } from "../../lib/authz/permissions";
import { NotFoundError } from "../../lib/errors";
import type { PrismaClient } from "../../lib/generated/prisma/client";

/**
 * The actor's checked access to a queue's project, as the queue routes' wrapper (`withProjectOf(queueLookup, …)`)
 * builds it: a missing queue, and a project the actor is not a member of, are both "No such queue.".
 */
export async function queueAccess<A extends ProjectAction>(
  prisma: PrismaClient,
  actor: Actor,
  queueId: string,
  action: A,
): Promise<ProjectAccess<A>> {
  const queue = await prisma.reviewQueue.findUnique({ where: { id: queueId }, select: { projectId: true } });
  if (!queue) throw new NotFoundError("No such queue.");
  return projectAccess(prisma, actor, queue.projectId, action).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new NotFoundError("No such queue.") : error;
  });
}
