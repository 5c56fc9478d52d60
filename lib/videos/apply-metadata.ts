import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { AppError } from "../errors";
import { countFileNames, findMetadata, metadataPathKey, type FileMetadata } from "../import/metadata-file";
import { splitDimensionList, type PromptIndex } from "../import/prompt-lists";
import { describeWithIndex, promptIndexForProject } from "./describe-imported-video";
import {
  asExtra,
  diffVideoFields,
  VIDEO_FIELD_SELECT,
  writeVideoEdit,
  type FieldChange,
  type VideoEditSource,
  type VideoFields,
} from "./video-edits";
import { videoMetadataSchema } from "./videos.validation";

/**
 * Metadata files and prompt lists imported after the videos they name: each named video gets the
 * fields the file gives (a prompt list: the full prompt its name was truncated from, and its
 * dimensions). A dry run lists every change; applying needs `confirmOverwrites` when a change
 * replaces a value already set, and writes every video with its history entry in one transaction.
 */

/** One metadata row as the import page parses it (lib/import/metadata-file.ts), with the path it names. */
export const metadataRowSchema = videoMetadataSchema.extend({ path: z.string().trim().min(1).max(4096) });

export const applyMetadataSchema = z
  .object({
    rows: z.array(metadataRowSchema).max(100_000).default([]),
    /** Also restore prompts and dimensions from the project's stored prompt lists. */
    promptLists: z.boolean().default(false),
    dryRun: z.boolean().default(true),
    confirmOverwrites: z.boolean().default(false),
  })
  .strict();
export type ApplyMetadataInput = z.output<typeof applyMetadataSchema>;

export interface VideoMetadataChange {
  videoId: string;
  relativePath: string;
  fields: FieldChange[];
}

export interface MetadataPlan {
  dryRun: boolean;
  /** Videos a row or a prompt list names. */
  matchedVideos: number;
  changes: VideoMetadataChange[];
  /** Field changes that replace a value already set. */
  overwrites: number;
  /** Rows that name no video of the project (the first 100, and how many). */
  unmatchedRows: string[];
  unmatchedRowCount: number;
  applied: boolean;
}

/** Rows keyed as parseMetadataFile keys them: by their path (or bare file name) as written. */
function rowIndex(rows: ApplyMetadataInput["rows"]) {
  const byPath = new Map<string, FileMetadata>();
  const pathOf = new Map<FileMetadata, string>();
  for (const { path, dimension, seed, extra, ...fields } of rows) {
    const key = metadataPathKey(path);
    const metadata: FileMetadata = {
      ...fields,
      ...(seed !== undefined ? { seed } : {}),
      ...(dimension !== undefined
        ? { dimension: Array.isArray(dimension) ? dimension : splitDimensionList(dimension) }
        : {}),
      extra: (extra ?? {}) as FileMetadata["extra"],
    };
    byPath.set(key, metadata);
    pathOf.set(metadata, key);
  }
  return { byPath, pathOf };
}

type VideoRow = { id: string; relativePath: string } & VideoFields;

/** The fields a video would have after the rows and prompt lists, or null when nothing names it. */
function proposedFields(
  video: VideoRow,
  metadata: FileMetadata | null,
  promptIndex: PromptIndex | null,
): { next: VideoFields; source: VideoEditSource } | null {
  let next: VideoFields = { ...video, dimensions: [...video.dimensions], extra: { ...video.extra } };
  let fromList = false;
  if (promptIndex) {
    const described = describeWithIndex(video.relativePath, { promptIndex });
    if (described.ok && described.value.matchedPromptList && described.value.prompt) {
      fromList = true;
      next.prompt = described.value.prompt;
      // A list adds the prompt's dimensions to those the video has (a folder may have named one already).
      next.dimensions = [...new Set([...next.dimensions, ...described.value.dimensions])];
    }
  }
  if (metadata) {
    next = {
      prompt: metadata.prompt ?? next.prompt,
      model: metadata.model ?? next.model,
      dimensions: metadata.dimension ?? next.dimensions,
      seed: metadata.seed === undefined ? next.seed : String(metadata.seed),
      sampleIndex: metadata.sampleIndex ?? next.sampleIndex,
      // A row's extra columns are added to the video's; a blank cell does not erase a value.
      extra: {
        ...next.extra,
        ...Object.fromEntries(Object.entries(metadata.extra).filter(([, value]) => value !== null)),
      },
    };
  }
  if (!metadata && !fromList) return null;
  return { next, source: metadata && fromList ? "metadata+prompt_list" : metadata ? "metadata" : "prompt_list" };
}

async function plan(
  prisma: PrismaClient | Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0],
  projectId: string,
  input: ApplyMetadataInput,
) {
  const { byPath, pathOf } = rowIndex(input.rows);
  const promptIndex = input.promptLists ? await promptIndexForProject(prisma as PrismaClient, projectId) : null;
  const videos = await prisma.video.findMany({
    where: { projectId },
    orderBy: { relativePath: "asc" },
    select: { id: true, relativePath: true, ...VIDEO_FIELD_SELECT },
  });
  const fileNames = countFileNames(videos.map((video) => video.relativePath));
  const usedPaths = new Set<string>();
  let matchedVideos = 0;
  const planned: { video: VideoRow; next: VideoFields; source: VideoEditSource; fields: FieldChange[] }[] = [];
  for (const row of videos) {
    const video: VideoRow = { ...row, extra: asExtra(row.extra) };
    const metadata = byPath.size ? findMetadata(byPath, video.relativePath, fileNames) : null;
    if (metadata) usedPaths.add(pathOf.get(metadata)!);
    const proposed = proposedFields(video, metadata, promptIndex);
    if (!proposed) continue;
    matchedVideos += 1;
    const fields = diffVideoFields(video, proposed.next);
    if (fields.length) planned.push({ video, ...proposed, fields });
  }
  const unmatched = [...pathOf.values()].filter((path) => !usedPaths.has(path));
  return { planned, matchedVideos, unmatched };
}

/** Plans (dry run) or applies metadata rows and prompt lists to the project's existing videos (owners). */
export async function applyMetadataToVideos(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.edit">,
  input: ApplyMetadataInput,
): Promise<MetadataPlan> {
  const { actor, projectId } = access;
  const summarise = (result: Awaited<ReturnType<typeof plan>>, applied: boolean): MetadataPlan => ({
    dryRun: input.dryRun,
    matchedVideos: result.matchedVideos,
    changes: result.planned.map((p) => ({ videoId: p.video.id, relativePath: p.video.relativePath, fields: p.fields })),
    overwrites: result.planned.reduce((sum, p) => sum + p.fields.filter((f) => f.overwrite).length, 0),
    unmatchedRows: result.unmatched.slice(0, 100),
    unmatchedRowCount: result.unmatched.length,
    applied,
  });
  if (input.dryRun) return summarise(await plan(prisma, projectId, input), false);
  return prisma.$transaction(
    async (tx) => {
      // Planned again under the lock, so what is applied is exactly what is checked here.
      await tx.$queryRaw`SELECT id FROM video WHERE "projectId" = ${projectId} FOR UPDATE`;
      const result = await plan(tx, projectId, input);
      const summary = summarise(result, true);
      if (summary.overwrites > 0 && !input.confirmOverwrites) {
        throw new AppError(
          409,
          "overwrite_unconfirmed",
          `${summary.overwrites} value${summary.overwrites === 1 ? "" : "s"} already set would change; confirm the overwrite (confirmOverwrites: true) to apply. Nothing was changed.`,
          {
            overwrites: summary.overwrites,
            changedVideos: summary.changes.length,
          },
        );
      }
      for (const { video, next, source } of result.planned) await writeVideoEdit(tx, video, next, actor.userId, source);
      return summary;
    },
    { timeout: 120_000 },
  );
}
