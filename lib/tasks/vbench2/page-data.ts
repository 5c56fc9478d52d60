/**
 * What the VBench-2.0 results page lists besides a run's results: the project's vbench2 runs (newest first, by
 * their one name) and its VBench results label sets; and the page's query, whitelisted.
 */
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { runNameOfRow } from "../../runs/run-name";

export const vbench2PageQuerySchema = z.object({
  runId: z.string().min(1).max(64).optional(),
  labelSetId: z.string().min(1).max(64).optional(),
});

export async function vbench2PageChoices(prisma: PrismaClient, projectId: string) {
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, pipeline: "vbench2", parentRunId: null },
    orderBy: { createdAt: "desc" },
    take: 100,
    select: { id: true, pipeline: true, createdAt: true, status: true, simulated: true, endpointSnapshot: true, endpoint: { select: { name: true, model: true } } },
  });
  const labelSets = await prisma.labelSet.findMany({ where: { projectId, format: "vbench" }, orderBy: { createdAt: "desc" }, select: { id: true, name: true } });
  return { runs: runs.map((run) => ({ id: run.id, status: run.status, simulated: run.simulated, label: runNameOfRow(run) })), labelSets };
}
