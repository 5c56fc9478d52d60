/**
 * A QA run as the results read it: its model, endpoint, judge, settings and label, read within the access's
 * project, and the project's QA runs.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { qaSettingsSchema, type QaSettings } from "./qa-pipeline";

export const QA_PIPELINE = "qa";

export interface QaRunSummary {
  id: string;
  status: string;
  simulated: boolean;
  createdAt: Date;
  /** The evaluated model (the endpoint's model when the run started) and the endpoint's name. */
  model: string;
  endpointName: string;
  /** The judge's model, when another endpoint judged. */
  judgeModel: string | null;
  settings: QaSettings;
  /** "model · 8 frames" (with the resize when it is not the seed's quarter, and the baseline). */
  label: string;
  /** Its answers were given without the video: an external run imported as text-only (harness-import.ts). */
  textOnly: boolean;
}

function snapshotOf(run: { endpointSnapshot: unknown; endpoint: { name: string; model: string } }) {
  const snapshot = (run.endpointSnapshot ?? {}) as {
    name?: unknown;
    model?: unknown;
    roles?: { judge?: { model?: unknown } };
  };
  return {
    model: typeof snapshot.model === "string" ? snapshot.model : run.endpoint.model,
    endpointName: typeof snapshot.name === "string" ? snapshot.name : run.endpoint.name,
    judgeModel: typeof snapshot.roles?.judge?.model === "string" ? snapshot.roles.judge.model : null,
  };
}

function runLabel(model: string, settings: QaSettings): string {
  const resize = settings.resize.mode === "quarter" ? "" : ` · ${settings.resize.px} px`;
  return `${model} · ${settings.frames} frames${resize}`;
}

export const runSelect = {
  id: true,
  projectId: true,
  pipeline: true,
  status: true,
  simulated: true,
  createdAt: true,
  settings: true,
  endpointSnapshot: true,
  endpoint: { select: { name: true, model: true } },
} as const;

export function summaryOf(run: {
  id: string;
  status: string;
  simulated: boolean;
  createdAt: Date;
  settings: unknown;
  endpointSnapshot: unknown;
  endpoint: { name: string; model: string };
}): QaRunSummary {
  const settings = qaSettingsSchema.parse(run.settings ?? {});
  const names = snapshotOf(run);
  // An imported harness run (harness-import.ts) saw no FrameJury frames: its label names its source instead.
  const external = (run.endpointSnapshot as { external?: { source?: unknown; textOnly?: unknown } } | null)?.external;
  const label = external
    ? `${names.model} · external (${String(external.source)}${external.textOnly === true ? ", text-only" : ""})`
    : runLabel(names.model, settings);
  return {
    id: run.id,
    status: run.status,
    simulated: run.simulated,
    createdAt: run.createdAt,
    ...names,
    settings,
    label,
    textOnly: external?.textOnly === true,
  };
}

/** A QA run of the access's project; a run of another project is "No such run.", as a missing one. */
export async function qaRunOf(prisma: PrismaClient, access: ProjectAccess, runId: string) {
  const run = await prisma.judgeRun.findFirst({
    where: { id: runId, projectId: access.projectId },
    select: runSelect,
  });
  if (!run) throw new NotFoundError("No such run.");
  if (run.pipeline !== QA_PIPELINE) throw new ValidationError(`Run ${run.id} is a ${run.pipeline} run, not a QA run.`);
  return { projectId: run.projectId, ...summaryOf(run) };
}

/** The project's QA runs, newest first. */
export async function projectQaRuns(prisma: PrismaClient, access: ProjectAccess): Promise<QaRunSummary[]> {
  const runs = await prisma.judgeRun.findMany({
    where: { projectId: access.projectId, pipeline: QA_PIPELINE },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
    select: runSelect,
  });
  return runs.map(summaryOf);
}
