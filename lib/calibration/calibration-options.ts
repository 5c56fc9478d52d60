/** What the calibration pages offer to compare: label sets and runs of any task (each report checks the run it is given). */
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { runSettingWords } from "../runs/run-labels";
import { labelRunsByTask } from "../runs/run-option-labels";

export interface CalibrationRunOption {
  id: string;
  pipeline: string;
  status: string;
  createdAt: Date;
  endpoint: string;
  model: string;
  videos: number;
  /** What the run was started with, as words by name (lib/runs/run-labels): its labels name the ones that differ. */
  settings: Record<string, string>;
}

/** The pickers of the calibration pages: the project's label sets and its judge runs (newest first). */
export async function calibrationOptions(prisma: PrismaClient, actor: Actor, projectId: string) {
  await requireProjectAccess(prisma, actor, projectId, "export.read");
  const [labelSets, runs] = await Promise.all([
    prisma.labelSet.findMany({
      where: { projectId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      select: { id: true, name: true, format: true, annotators: true },
    }),
    prisma.judgeRun.findMany({
      where: { projectId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      select: {
        id: true,
        pipeline: true,
        status: true,
        createdAt: true,
        settings: true,
        endpointSnapshot: true,
        promptVersionIds: true,
        batchMode: true,
        ensemble: true,
        endpoint: { select: { name: true, model: true } },
        _count: { select: { videos: true } },
      },
    }),
  ]);
  // The edited prompt templates each run rendered, by their versions' hashes.
  const versionIds = runs.flatMap((r) =>
    Object.values((r.promptVersionIds ?? {}) as Record<string, unknown>).filter(
      (id): id is string => typeof id === "string",
    ),
  );
  const versions = versionIds.length
    ? await prisma.promptVersion.findMany({
        where: { projectId, id: { in: versionIds } },
        select: { id: true, hash: true },
      })
    : [];
  const hashOf = new Map(versions.map((v) => [v.id, v.hash]));
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
        settings: runSettingWords({
          settings: r.settings,
          endpointSnapshot: r.endpointSnapshot,
          batchMode: r.batchMode,
          ensemble: r.ensemble,
          promptVersions: Object.fromEntries(
            Object.entries((r.promptVersionIds ?? {}) as Record<string, unknown>).flatMap(([templateId, id]) =>
              typeof id === "string" && hashOf.has(id) ? [[templateId, hashOf.get(id)!]] : [],
            ),
          ),
        }),
      };
    }),
  };
}

/**
 * The pickers' labels of these runs, by id: each names its task, judge and start to the second, and the
 * settings in which it differs from the other runs of its task listed (lib/runs/run-labels; runs of two
 * tasks are told apart by the task), so no two read the same.
 */
export function runOptionLabels(runs: readonly CalibrationRunOption[]): Map<string, string> {
  return labelRunsByTask(
    runs.map((r) => ({
      id: r.id,
      pipeline: r.pipeline,
      endpointName: r.endpoint,
      model: r.model,
      createdAt: r.createdAt,
      settings: r.settings,
    })),
  );
}
