import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { queueInProject } from "./queue-access";
import { assigneesOf } from "./queue-states";
import { assignmentOf, progressOf, queueJson } from "./queue-json";

/** One queue with its progress and the caller's own counts. */
export async function getQueue(prisma: PrismaClient, access: ProjectAccess, queueId: string) {
  const { actor } = access;
  const queue = await queueInProject(prisma, access, queueId);
  const [progress, assignees] = await Promise.all([
    progressOf(prisma, [queue]).then((p) => p.get(queue.id)!),
    assigneesOf(prisma, [queue]).then((a) => a.get(queue.id)!),
  ]);
  const mine = progress.reviewers.find((r) => r.reviewerId === actor.userId);
  return {
    ...queueJson(queue),
    progress,
    mine: { done: mine?.done ?? 0, claimed: mine?.claimed ?? 0 },
    /** Every item has its N reviewers. */
    finished: progress.complete >= queue.itemCount,
    assignment: assignmentOf(queue, assignees, actor.userId),
  };
}
