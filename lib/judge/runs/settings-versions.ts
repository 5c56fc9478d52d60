/**
 * Versioned run defaults (issue 38 §3): every save of a project's defaults for a pipeline (the Judge page's settings
 * card, an alignment's "Use as the defaults") appends a version with who, when and the alignment that applied it;
 * `project.judgeSettings` keeps the latest version's settings, which new runs read, and a run started from the
 * defaults records the version it used. A version also carries tuned positive thresholds of score targets
 * (`thresholds`, by target id): an alignment of a score target saves its tuned threshold this way.
 */
import type { z } from "zod";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ValidationError } from "../../errors";
import type { PipelineDefinition } from "../../task-modules/pipeline-types";

type Pipelines = Record<string, PipelineDefinition & { settingsSchema?: z.ZodType }>;
type Db = PrismaClient | Prisma.TransactionClient;

export interface SettingsVersion {
  id: string;
  pipeline: string;
  number: number;
  settings: unknown;
  thresholds: Record<string, number>;
  alignmentRunId: string | null;
  note: string;
  createdById: string;
  createdAt: Date;
}

const versionSelect = {
  id: true,
  pipeline: true,
  number: true,
  settings: true,
  thresholds: true,
  alignmentRunId: true,
  note: true,
  createdById: true,
  createdAt: true,
} as const;

function asVersion(row: Prisma.PipelineSettingsVersionGetPayload<{ select: typeof versionSelect }>): SettingsVersion {
  return { ...row, thresholds: (row.thresholds ?? {}) as Record<string, number> };
}

/** The latest version of a pipeline's defaults in a project, or null when none was saved yet. */
export async function latestSettingsVersion(
  db: Db,
  projectId: string,
  pipeline: string,
): Promise<SettingsVersion | null> {
  const row = await db.pipelineSettingsVersion.findFirst({
    where: { projectId, pipeline },
    orderBy: { number: "desc" },
    select: versionSelect,
  });
  return row ? asVersion(row) : null;
}

/**
 * Appends a version of a pipeline's defaults and makes its settings the project's defaults, in one transaction
 * (a concurrent save gets the next number or fails on the unique number, never overwrites). `thresholds` are merged
 * over the previous version's; `settings` absent keeps the previous version's (or the stored defaults).
 */
export async function saveSettingsVersion(
  prisma: PrismaClient,
  access: ProjectAccess<"runs.manage">,
  pipelines: Pipelines,
  pipelineId: string,
  change: { settings?: unknown; thresholds?: Record<string, number>; alignmentRunId?: string | null; note?: string },
): Promise<SettingsVersion> {
  const { actor, projectId } = access;
  const pipeline = pipelines[pipelineId];
  if (!pipeline || (pipeline.projectId && pipeline.projectId !== projectId))
    throw new ValidationError(`Unknown pipeline ${pipelineId}.`);
  if (change.settings !== undefined && !pipeline.settingsSchema)
    throw new ValidationError(`Pipeline ${pipelineId} has no settings.`);
  const parsed = change.settings !== undefined ? pipeline.settingsSchema!.parse(change.settings) : undefined;
  if (parsed !== undefined) await assertSettingsEndpointsInProject(prisma, projectId, pipeline, parsed);
  return prisma.$transaction(async (tx) => {
    const previous = await latestSettingsVersion(tx, projectId, pipelineId);
    const project = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { judgeSettings: true } });
    const stored = (project.judgeSettings ?? {}) as Record<string, unknown>;
    const settings = parsed ?? previous?.settings ?? stored[pipelineId] ?? {};
    const row = await tx.pipelineSettingsVersion.create({
      data: {
        projectId,
        pipeline: pipelineId,
        number: (previous?.number ?? 0) + 1,
        settings: settings as Prisma.InputJsonValue,
        thresholds: { ...previous?.thresholds, ...change.thresholds },
        alignmentRunId: change.alignmentRunId ?? null,
        note: change.note ?? "",
        createdById: actor.userId,
      },
      select: versionSelect,
    });
    if (parsed !== undefined)
      await tx.project.update({
        where: { id: projectId },
        data: { judgeSettings: { ...stored, [pipelineId]: parsed } as Prisma.InputJsonValue },
      });
    return asVersion(row);
  });
}

/**
 * The endpoints the settings name for a step's role (a QA run's judge: PipelineDefinition.endpointIds) must be the
 * project's own: a run would refuse another project's, so the defaults refuse it when saved, naming the role.
 */
async function assertSettingsEndpointsInProject(
  prisma: PrismaClient,
  projectId: string,
  pipeline: PipelineDefinition,
  settings: unknown,
): Promise<void> {
  for (const [role, id] of Object.entries(pipeline.endpointIds?.(settings) ?? {})) {
    if (!id) continue;
    const found = await prisma.judgeEndpoint.findFirst({ where: { id, projectId }, select: { id: true } });
    if (!found) throw new ValidationError(`No such endpoint in this project for the ${role} (${id}).`);
  }
}

/** Every version of a pipeline's defaults in a project, newest first (members may read them). */
export async function listSettingsVersions(
  prisma: PrismaClient,
  access: ProjectAccess,
  pipeline: string,
): Promise<SettingsVersion[]> {
  const rows = await prisma.pipelineSettingsVersion.findMany({
    where: { projectId: access.projectId, pipeline },
    orderBy: { number: "desc" },
    select: versionSelect,
  });
  return rows.map(asVersion);
}
