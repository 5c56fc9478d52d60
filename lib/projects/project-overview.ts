import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";

/**
 * The project page's counts: videos by status, runs, human judgments (all, the caller's, how many
 * reviewers gave them) and open review queues. Counts only: no judge or reviewer values.
 */
export async function projectOverviewCounts(prisma: PrismaClient, actor: Actor, projectId: string) {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const [statusCounts, runs, judgments, myJudgments, reviewerRows, openQueues] = await Promise.all([
    prisma.video.groupBy({ by: ["status"], where: { projectId }, _count: { _all: true } }),
    prisma.judgeRun.count({ where: { projectId } }),
    prisma.humanJudgment.count({ where: { projectId, withdrawn: false } }),
    prisma.humanJudgment.count({ where: { projectId, reviewerId: actor.userId, withdrawn: false } }),
    prisma.humanJudgment.findMany({ where: { projectId, withdrawn: false }, distinct: ["reviewerId"], select: { reviewerId: true } }),
    prisma.reviewQueue.count({ where: { projectId, archivedAt: null } }),
  ]);
  const videosByStatus: Record<string, number> = Object.fromEntries(statusCounts.map((row) => [row.status, row._count._all]));
  return {
    videos: { total: statusCounts.reduce((sum, row) => sum + row._count._all, 0), byStatus: videosByStatus },
    runs,
    judgments,
    myJudgments,
    reviewers: reviewerRows.length,
    openQueues,
  };
}
