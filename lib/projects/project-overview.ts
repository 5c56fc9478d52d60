import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";

/**
 * The project page's counts: videos by status, runs, human judgments (all, the caller's; those people gave and
 * how many people gave them; those imported label sets hold and how many label sets) and open review queues.
 * Counts only: no judge or reviewer values. A label set's annotators are reviewers to the agreement report, but
 * not people: the page counts them apart, so an imported file never reads as someone's work.
 */
export async function projectOverviewCounts(prisma: PrismaClient, access: ProjectAccess) {
  const { projectId, actor } = access;
  const [statusCounts, runs, judgmentsBySource, myJudgments, reviewerRows, labelSetRows, openQueues] =
    await Promise.all([
      prisma.video.groupBy({ by: ["status"], where: { projectId }, _count: { _all: true } }),
      prisma.judgeRun.count({ where: { projectId } }),
      prisma.$queryRaw<{ fromLabelSet: boolean; count: number }[]>`
      SELECT (h."labelSetId" IS NOT NULL) AS "fromLabelSet", count(*)::int AS "count" FROM "human_judgment" h
      WHERE h."projectId" = ${projectId} AND NOT h."withdrawn" GROUP BY 1`,
      prisma.humanJudgment.count({ where: { projectId, reviewerId: actor.userId, withdrawn: false } }),
      prisma.humanJudgment.findMany({
        where: { projectId, withdrawn: false, labelSetId: null },
        distinct: ["reviewerId"],
        select: { reviewerId: true },
      }),
      prisma.humanJudgment.findMany({
        where: { projectId, withdrawn: false, labelSetId: { not: null } },
        distinct: ["labelSetId"],
        select: { labelSetId: true },
      }),
      prisma.reviewQueue.count({ where: { projectId, archivedAt: null } }),
    ]);
  const videosByStatus: Record<string, number> = Object.fromEntries(
    statusCounts.map((row) => [row.status, row._count._all]),
  );
  const reviewerJudgments = judgmentsBySource.find((row) => !row.fromLabelSet)?.count ?? 0;
  const labelSetJudgments = judgmentsBySource.find((row) => row.fromLabelSet)?.count ?? 0;
  return {
    videos: { total: statusCounts.reduce((sum, row) => sum + row._count._all, 0), byStatus: videosByStatus },
    runs,
    judgments: reviewerJudgments + labelSetJudgments,
    myJudgments,
    /** People who gave judgments (label sets' annotators not included). */
    reviewers: reviewerRows.length,
    reviewerJudgments,
    /** Label sets with judgments in the project (one each, however many annotator columns it has). */
    labelSets: labelSetRows.length,
    labelSetJudgments,
    openQueues,
  };
}

type ReviewCounts = Pick<
  Awaited<ReturnType<typeof projectOverviewCounts>>,
  "judgments" | "myJudgments" | "reviewers" | "reviewerJudgments" | "labelSets" | "labelSetJudgments"
>;

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The overview's line about judgments, people and label sets apart: "16 judgments: 12 by 1 reviewer, 4 from
 * 1 label set · 0 yours"; with only one source, "12 judgments by 2 reviewers · 5 yours" or "16 judgments from
 * 1 label set · 0 yours".
 */
export function reviewCountsSentence(counts: ReviewCounts): string {
  const total = counted(counts.judgments, "judgment", "judgments");
  const byPeople = `by ${counted(counts.reviewers, "reviewer", "reviewers")}`;
  const fromLabelSets = `from ${counted(counts.labelSets, "label set", "label sets")}`;
  const yours = `${counts.myJudgments} yours`;
  if (counts.reviewerJudgments > 0 && counts.labelSetJudgments > 0)
    return `${total}: ${counts.reviewerJudgments} ${byPeople}, ${counts.labelSetJudgments} ${fromLabelSets} · ${yours}`;
  if (counts.labelSetJudgments > 0) return `${total} ${fromLabelSets} · ${yours}`;
  if (counts.reviewerJudgments > 0) return `${total} ${byPeople} · ${yours}`;
  return `${total} · ${yours}`;
}
