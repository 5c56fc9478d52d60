import type { PrismaClient } from "../generated/prisma/client";
import { parseVideoPath } from "../import/parse-video-path";
import { buildPromptIndex, type PromptIndex } from "../import/prompt-lists";
import { projectPromptEntries } from "./prompt-list-entries";
import type { VideoMetadataInput } from "./videos.validation";

export interface ImportedVideoFields {
  fileName: string;
  relativePath: string;
  prompt: string | null;
  promptTruncated: string | null;
  dimensions: string[];
  model: string | null;
  sampleIndex: number | null;
  seed: string | null;
  extra: Record<string, unknown>;
  matchedPromptList: boolean;
  /** The matched prompt's auxiliary info of the video's dimensions (VBench-2.0's `auxiliary_info`). */
  auxiliaryInfo: Record<string, unknown>;
}

/** The project's prompt lists merged into one index (later lists add dimensions to earlier ones). */
export async function promptIndexForProject(prisma: PrismaClient, projectId: string): Promise<PromptIndex> {
  return buildPromptIndex(await projectPromptEntries(prisma, projectId));
}

/**
 * What a video is, from its path in the imported folder, the project's prompt lists, the import
 * form's model, and explicit metadata (which wins). The one parser the UI and the API share.
 */
export async function describeImportedVideo(
  prisma: PrismaClient,
  projectId: string,
  relativePath: string,
  options: { model?: string; metadata?: VideoMetadataInput; promptIndex?: PromptIndex },
): Promise<{ ok: true; value: ImportedVideoFields } | { ok: false; error: string }> {
  const promptIndex = options.promptIndex ?? (await promptIndexForProject(prisma, projectId));
  return describeWithIndex(relativePath, { ...options, promptIndex });
}

export function describeWithIndex(
  relativePath: string,
  options: { model?: string; metadata?: VideoMetadataInput; promptIndex: PromptIndex },
): { ok: true; value: ImportedVideoFields } | { ok: false; error: string } {
  const parsed = parseVideoPath(relativePath, { model: options.model || undefined, promptIndex: options.promptIndex });
  if (!parsed.ok) return parsed;
  const meta = options.metadata ?? {};
  const metaDimensions =
    meta.dimension === undefined ? undefined : Array.isArray(meta.dimension) ? meta.dimension : [meta.dimension];
  return {
    ok: true,
    value: {
      fileName: parsed.value.fileName,
      relativePath: relativePath.replaceAll("\\", "/"),
      prompt: meta.prompt ?? parsed.value.prompt ?? null,
      promptTruncated: parsed.value.promptTruncated ?? null,
      dimensions: metaDimensions ?? parsed.value.dimensions,
      model: meta.model ?? parsed.value.model ?? null,
      sampleIndex: meta.sampleIndex ?? parsed.value.sampleIndex,
      seed: meta.seed === undefined ? null : String(meta.seed),
      extra: meta.extra ?? {},
      matchedPromptList: meta.prompt !== undefined || parsed.value.matchedPromptList,
      auxiliaryInfo: parsed.value.auxiliaryInfo,
    },
  };
}
