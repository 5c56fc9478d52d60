// A project's default settings for its new runs, by pipeline: read by the Judge form, saved by owners as versions.
import type { z } from "zod";
import type { ProjectAccess } from "../../authz/permissions";
import { ValidationError } from "../../errors";
import type { PrismaClient } from "../../generated/prisma/client";
import type { PipelineDefinition } from "../../task-modules/pipeline-types";
import { saveSettingsVersion } from "./settings-versions";

/** The project's stored default settings for new runs, by pipeline id (each as saved; a pipeline parses its own). */
export async function projectPipelineDefaults(
  prisma: PrismaClient,
  access: ProjectAccess,
): Promise<Record<string, unknown>> {
  const project = await prisma.project.findUniqueOrThrow({
    where: { id: access.projectId },
    select: { judgeSettings: true },
  });
  return (project.judgeSettings ?? {}) as Record<string, unknown>;
}

/**
 * Owners set a project's default settings for a pipeline's new runs (validated by the pipeline), saved as a new
 * version of them (lib/judge/runs/settings-versions.ts; earlier versions are kept).
 */
export async function setPipelineDefaults(
  prisma: PrismaClient,
  access: ProjectAccess<"runs.manage">,
  pipelines: Readonly<Record<string, PipelineDefinition & { settingsSchema?: z.ZodType }>>,
  pipelineId: string,
  settings: unknown,
  source: { alignmentRunId?: string; note?: string } = {},
) {
  const { projectId } = access;
  const pipeline = pipelines[pipelineId];
  if (!pipeline?.settingsSchema || (pipeline.projectId && pipeline.projectId !== projectId))
    throw new ValidationError(`Pipeline ${pipelineId} has no settings.`);
  const version = await saveSettingsVersion(prisma, access, pipelines, pipelineId, { settings, ...source });
  return version.settings;
}
