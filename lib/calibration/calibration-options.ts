/** What the calibration pages offer to compare: label sets and runs of any task (each report checks the run it is given). */
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";

export interface CalibrationRunOption {
  id: string;
  pipeline: string;
  status: string;
  createdAt: Date;
  endpoint: string;
  model: string;
  videos: number;
}

/** The pickers of the calibration pages: the project's label sets and its judge runs (newest first). */
export async function calibrationOptions(prisma: PrismaClient, actor: Actor, projectId: string) {
  await requireProjectAccess(prisma, actor, projectId, "export.read");
  const [labelSets, runs] = await Promise.all([
    prisma.labelSet.findMany({ where: { projectId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select: { id: true, name: true, format: true, annotators: true } }),
    prisma.judgeRun.findMany({
      where: { projectId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      select: { id: true, pipeline: true, status: true, createdAt: true, endpointSnapshot: true, endpoint: { select: { name: true, model: true } }, _count: { select: { videos: true } } },
    }),
  ]);
  return {
    labelSets,
    runs: runs.map((r): CalibrationRunOption => {
      const snapshot = (r.endpointSnapshot ?? {}) as { name?: unknown; model?: unknown };
      return {
        id: r.id,
        pipeline: r.pipeline,
        status: r.status,
        createdAt: r.createdAt,
        endpoint: typeof snapshot.name === "string" ? snapshot.name : r.endpoint.name,
        model: typeof snapshot.model === "string" ? snapshot.model : r.endpoint.model,
        videos: r._count.videos,
      };
    }),
  };
}
