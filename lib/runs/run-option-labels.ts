/**
 * The labels of run pickers (the video page's run selector, the new-queue form, the calibration pages): each
 * names its task, judge and start to the second, and what it was started with where it differs from the other
 * runs of its task listed (lib/runs/run-labels), so two runs never read the same.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { catalogFor } from "../rubrics/project-catalogue";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import { builtInDeclarations } from "../task-modules/installed-declarations";
import { distinctRunLabels, runSettingWords, type RunLabelParts } from "./run-labels";

/** Labels by run id; runs of different tasks are told apart by the task, so each task's runs are compared among themselves. */
export function labelRunsByTask(
  runs: readonly RunLabelParts[],
  catalogue: DeclarationCatalogue = builtInDeclarations(),
): Map<string, string> {
  const labels = new Map<string, string>();
  for (const pipeline of new Set(runs.map((r) => r.pipeline))) {
    for (const [id, label] of distinctRunLabels(
      runs.filter((r) => r.pipeline === pipeline),
      catalogue,
    ))
      labels.set(id, label);
  }
  return labels;
}

/**
 * The picker labels of these runs of one project, by id (a run of another project is left out). Reads what
 * each run was started with: settings, the endpoint's snapshot, edited prompt versions, batch mode, ensemble.
 * The caller has checked the actor may see the project's runs.
 */
export async function runPickerLabels(
  prisma: PrismaClient,
  projectId: string,
  runIds: readonly string[],
): Promise<Map<string, string>> {
  if (runIds.length === 0) return new Map();
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, id: { in: [...runIds] } },
    select: {
      id: true,
      pipeline: true,
      createdAt: true,
      settings: true,
      endpointSnapshot: true,
      promptVersionIds: true,
      batchMode: true,
      ensemble: true,
      endpoint: { select: { name: true, model: true } },
    },
  });
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
  const catalogue = await catalogFor(prisma, projectId);
  return labelRunsByTask(
    runs.map((r): RunLabelParts => {
      const snapshot = (r.endpointSnapshot ?? {}) as { name?: unknown; model?: unknown };
      return {
        id: r.id,
        pipeline: r.pipeline,
        createdAt: r.createdAt,
        endpointName: typeof snapshot.name === "string" ? snapshot.name : r.endpoint.name,
        model: typeof snapshot.model === "string" ? snapshot.model : r.endpoint.model,
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
    catalogue,
  );
}
