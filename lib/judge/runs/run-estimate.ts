/**
 * The cost estimate of a run being started (a dry run's answer, and `JudgeRun.estimate` of a started one), rendered
 * with the run's own prompt versions.
 */
import type { JudgeEndpoint, PrismaClient } from "../../generated/prisma/client";
import { estimatePlannedRun } from "./cost-estimate-load";
import type { RunEstimate } from "./cost-estimate";
import { inputModeOf } from "../input-modes/index";
import { fileTemplateSource, withPromptVersions, type TemplateSource } from "../prompts/template-source";
import type { PipelineDefinition } from "../../task-modules/pipeline-types";
import type { PromptVersionRef } from "../engine/step-store";

export interface RunToEstimate {
  projectId: string;
  pipeline: PipelineDefinition;
  settings: unknown;
  endpoint: JudgeEndpoint;
  roleEndpoints: readonly { role: string; endpoint: JudgeEndpoint }[];
  promptVersionIds: Record<string, string>;
  /** The run's input mode (the endpoint's unless the run chose one). */
  inputMode: string;
  batch: boolean;
  videos: readonly { id: string; frameSets: readonly { id: string }[] }[];
  items: readonly { itemId: string; videoId: string; position: number }[];
}

/** The estimate, or why it could not be made (a template that does not render): the run itself is not refused for it. */
export async function estimateRunStart(
  prisma: PrismaClient,
  run: RunToEstimate,
  shipped: TemplateSource = fileTemplateSource(),
): Promise<{ estimate: RunEstimate | null; estimateError: string | null }> {
  try {
    const templates = withPromptVersions(shipped, await promptVersionsOf(prisma, run.promptVersionIds));
    const estimate = await estimatePlannedRun(prisma, {
      projectId: run.projectId,
      pipeline: run.pipeline,
      settings: run.settings,
      endpoint: run.endpoint,
      roleEndpoints: run.roleEndpoints,
      inputMode: inputModeOf(run.inputMode),
      batch: run.batch,
      templates,
      videos: run.videos.map((v) => ({ id: v.id, frameSetId: v.frameSets[0]!.id })),
      items: run.items,
    });
    return { estimate, estimateError: null };
  } catch (error) {
    return { estimate: null, estimateError: error instanceof Error ? error.message : String(error) };
  }
}

async function promptVersionsOf(prisma: PrismaClient, ids: Record<string, string>) {
  const wanted = Object.values(ids);
  if (wanted.length === 0) return {};
  const rows = await prisma.promptVersion.findMany({
    where: { id: { in: wanted } },
    select: { templateId: true, text: true, hash: true },
  });
  const versions: Record<string, PromptVersionRef> = Object.create(null) as Record<string, PromptVersionRef>;
  for (const row of rows) versions[row.templateId] = { text: row.text, hash: row.hash };
  return versions;
}
