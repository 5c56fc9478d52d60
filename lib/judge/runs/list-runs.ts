import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { runPickerLabels } from "./run-option-labels";

/** The project's latest runs, each with its `label`: its name among the runs listed (lib/judge/runs/run-option-labels). */
export async function listRuns(prisma: PrismaClient, access: ProjectAccess) {
  const { projectId } = access;
  const runs = await prisma.judgeRun.findMany({
    where: { projectId },
    orderBy: { createdAt: "desc" },
    take: 100,
    include: { endpoint: { select: { name: true, model: true } }, _count: { select: { videos: true } } },
  });
  // Named among the runs the list shows: an ensemble's member runs are listed on its run page.
  const labels = await runPickerLabels(
    prisma,
    projectId,
    runs.filter((r) => !r.parentRunId).map((r) => r.id),
  );
  return runs.map((run) => ({ ...run, label: labels.get(run.id) ?? null }));
}
