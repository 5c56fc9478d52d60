/** What the calibration pages offer to compare: label sets and runs of any task (each report checks the run it is given). */
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { labelRunsByTask, RUN_LABEL_SELECT, runLabelParts } from "../judge/runs/run-option-labels";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";

export interface CalibrationRunOption {
  id: string;
  pipeline: string;
  status: string;
  createdAt: Date;
  endpoint: string;
  model: string;
  videos: number;
  /** What the run was started with, as words by name (lib/judge/runs/run-labels): its labels name the ones that differ. */
  settings: Record<string, string>;
}

/** The pickers of the calibration pages: the project's label sets and its judge runs (newest first). */
export async function calibrationOptions(prisma: PrismaClient, access: ProjectAccess<"export.read">) {
  const { projectId } = access;
  const [labelSets, runs] = await Promise.all([
    prisma.labelSet.findMany({
      where: { projectId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      select: { id: true, name: true, format: true, annotators: true },
    }),
    prisma.judgeRun.findMany({
      where: { projectId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      select: { ...RUN_LABEL_SELECT, status: true, _count: { select: { videos: true } } },
    }),
  ]);
  const parts = new Map((await runLabelParts(prisma, projectId, runs)).map((p) => [p.id, p]));
  return {
    labelSets,
    runs: runs.map((r): CalibrationRunOption => {
      const part = parts.get(r.id)!;
      return {
        id: r.id,
        pipeline: r.pipeline,
        status: r.status,
        createdAt: r.createdAt,
        endpoint: part.endpointName,
        model: part.model ?? r.endpoint.model,
        videos: r._count.videos,
        settings: part.settings,
      };
    }),
  };
}

/**
 * The pickers' labels of these runs, by id: each names its task, judge and start to the second, and the
 * settings in which it differs from the other runs of its task listed (lib/judge/runs/run-labels; runs of two
 * tasks are told apart by the task), so no two read the same. A rubric task's run is named by the project's catalogue.
 */
export function runOptionLabels(
  runs: readonly CalibrationRunOption[],
  catalogue: DeclarationCatalogue,
): Map<string, string> {
  return labelRunsByTask(
    runs.map((r) => ({
      id: r.id,
      pipeline: r.pipeline,
      endpointName: r.endpoint,
      model: r.model,
      createdAt: r.createdAt,
      settings: r.settings,
    })),
    catalogue,
  );
}
