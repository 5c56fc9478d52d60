import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";

/**
 * A queue of the project with the pipeline of the run it reviews (its task labels every code on the
 * review screen), or null when the project has no such queue.
 */
export async function queueWithRunPipeline(prisma: PrismaClient, access: ProjectAccess, queueId: string) {
  const queue = await prisma.reviewQueue.findFirst({
    where: { id: queueId, projectId: access.projectId },
    select: { id: true, runId: true },
  });
  if (!queue) return null;
  const run = await prisma.judgeRun.findUnique({ where: { id: queue.runId }, select: { pipeline: true } });
  return { id: queue.id, runId: queue.runId, pipeline: run?.pipeline ?? null };
}
