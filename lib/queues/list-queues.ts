import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { assigneesOf } from "./queue-states";
import { assignmentOf, progressOf, queueJson } from "./queue-json";

/** A project's queues (newest first) with their progress; the archived ones instead with `archived`. */
export async function listQueues(prisma: PrismaClient, access: ProjectAccess, options: { archived?: boolean } = {}) {
  const { actor, projectId } = access;
  const queues = await prisma.reviewQueue.findMany({
    where: { projectId, archivedAt: options.archived ? { not: null } : null },
    orderBy: { createdAt: "desc" },
  });
  const [progress, assignees] = await Promise.all([progressOf(prisma, queues), assigneesOf(prisma, queues)]);
  return queues.map((q) => {
    const p = progress.get(q.id)!;
    return {
      ...queueJson(q),
      progress: p,
      finished: p.complete >= q.itemCount,
      assignment: assignmentOf(q, assignees.get(q.id)!, actor.userId),
    };
  });
}
