/**
 * The labels of runs listed together (the runs list, the video page's run selector, the new-queue form, the
 * calibration pages, the agreement raters and chart legends): each names its task, judge and start to the
 * second, and what it was started with where it differs from the other runs of its task listed
 * (lib/judge/runs/run-labels: input mode, frames, samples, the endpoint's address…), so two runs never read the same.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import { catalogFor } from "../../task-modules/task-catalogue";
import type { DeclarationCatalogue } from "../../task-modules/declaration-catalogue";
import { distinctRunLabels, runSettingWords, type RunLabelParts } from "./run-labels";
import { runEndpointOfRow } from "../../run-records/run-name";

/** Labels by run id; runs of different tasks are told apart by the task, so each task's runs are compared among themselves. */
export function labelRunsByTask(runs: readonly RunLabelParts[], catalogue: DeclarationCatalogue): Map<string, string> {
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

/** What runPickerLabels reads of a run. */
export const RUN_LABEL_SELECT = {
  id: true,
  pipeline: true,
  createdAt: true,
  inputMode: true,
  settings: true,
  endpointSnapshot: true,
  promptVersionIds: true,
  batchMode: true,
  ensemble: true,
  endpoint: { select: { name: true, model: true } },
} as const;

interface RunLabelRow {
  id: string;
  pipeline: string;
  createdAt: Date;
  inputMode: string | null;
  settings: unknown;
  endpointSnapshot: unknown;
  promptVersionIds: unknown;
  batchMode: boolean;
  ensemble: unknown;
  endpoint: { name: string; model: string | null };
}

/**
 * What each run was started with, for its label: the judge as it was at the start (the endpoint's snapshot),
 * and its settings as words, edited prompt templates named by their versions' hashes.
 */
export async function runLabelParts(
  prisma: PrismaClient,
  projectId: string,
  runs: readonly RunLabelRow[],
): Promise<RunLabelParts[]> {
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
  return runs.map((r): RunLabelParts => {
    return {
      id: r.id,
      pipeline: r.pipeline,
      createdAt: r.createdAt,
      ...runEndpointOfRow(r),
      settings: runSettingWords({
        inputMode: r.inputMode,
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
  });
}

/**
 * The labels of these runs of one project, by id (a run of another project is left out): every place that
 * lists runs together names them with these — the runs list, the run pickers, the agreement raters and legends.
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
    select: RUN_LABEL_SELECT,
  });
  const [parts, catalogue] = await Promise.all([runLabelParts(prisma, projectId, runs), catalogFor(prisma, projectId)]);
  return labelRunsByTask(parts, catalogue);
}
