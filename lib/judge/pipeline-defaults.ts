// A project's default settings for its new runs, by pipeline: read by the Judge form, saved by owners as versions.
import type { z } from "zod";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { ValidationError } from "../errors";
import type { PrismaClient } from "../generated/prisma/client";
import type { PipelineDefinition } from "./engine/pipeline";
import { saveSettingsVersion } from "./settings-versions";

/** The project's stored default settings for new runs, by pipeline id (each as saved; a pipeline parses its own). */
export async function projectPipelineDefaults(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
): Promise<Record<string, unknown>> {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { judgeSettings: true } });
  return (project.judgeSettings ?? {}) as Record<string, unknown>;
}

/**
 * Owners set a project's default settings for a pipeline's new runs (validated by the pipeline), saved as a new
 * version of them (lib/judge/settings-versions.ts; earlier versions are kept).
 */
export async function setPipelineDefaults(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  pipelines: Readonly<Record<string, PipelineDefinition & { settingsSchema?: z.ZodType }>>,
  pipelineId: string,
  settings: unknown,
  source: { alignmentRunId?: string; note?: string } = {},
) {
  await requireProjectAccess(prisma, actor, projectId, "runs.manage");
  const pipeline = pipelines[pipelineId];
  if (!pipeline?.settingsSchema || (pipeline.projectId && pipeline.projectId !== projectId))
    throw new ValidationError(`Pipeline ${pipelineId} has no settings.`);
  const version = await saveSettingsVersion(prisma, actor, projectId, pipelines, pipelineId, { settings, ...source });
  return version.settings;
}
