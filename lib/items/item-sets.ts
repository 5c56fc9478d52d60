/**
 * Caption sets: AnyCapEval reference sets and models' outputs against them, imported into a project as
 * items attached to its videos. Parsing (lib/tasks/captions/caption-sets.ts) returns every item or every error,
 * and the writing happens in one transaction, so a bad file never leaves half a set behind; `dryRun`
 * returns the same answer without writing anything.
 */
import { createHash } from "node:crypto";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import {
  type CaptionSetError,
  formatCaptionSetError,
  MAX_CAPTION_SET_FILE_BYTES,
  outputFileFormat,
  parseModelOutputs,
  parseReferenceSet,
} from "../tasks/captions/caption-sets";
import { AppError, ConflictError, NotFoundError, PayloadTooLargeError } from "../errors";
import { NUL_BYTE_MESSAGE, nulBytePath } from "../validation/nul-bytes";
import { CAPTION_SET_KINDS, type ItemSetKind } from "./items.validation";

/** The file could be read but its content is refused; every problem is in `details.errors` with its line. */
export class ItemFileError extends AppError {
  constructor(fileName: string, errors: CaptionSetError[], unmatched: string[] = []) {
    const shown = errors.slice(0, 3).map(formatCaptionSetError).join("; ");
    const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : "";
    super(422, "invalid_file", `${fileName}: nothing was imported: ${shown}${more}.`, { errors, unmatched });
  }
}

export interface ItemFile {
  fileName: string;
  bytes: Uint8Array;
}

export interface ImportSummary {
  dryRun: boolean;
  /** The stored set, or on a dry run what would be stored (no id). */
  set: ItemSetView | (Omit<ItemSetView, "id" | "importedAt"> & { id: null; importedAt: null });
  items: { count: number; videos: number; byType: Record<string, number> };
  /** Reference videos with no project video of that file name (always empty on success: they are errors). */
  unmatched: string[];
}

export interface ItemSetView {
  id: string;
  kind: ItemSetKind;
  name: string;
  model: string | null;
  referenceSetId: string | null;
  fileName: string;
  sha256: string;
  itemCount: number;
  citation: string | null;
  importedAt: Date;
}

const setSelect = {
  id: true,
  kind: true,
  name: true,
  model: true,
  referenceSetId: true,
  fileName: true,
  sha256: true,
  itemCount: true,
  citation: true,
  importedAt: true,
} as const;

function checkSize(file: ItemFile) {
  if (file.bytes.byteLength > MAX_CAPTION_SET_FILE_BYTES) {
    throw new PayloadTooLargeError(`${file.fileName}: a caption set file may be at most ${MAX_CAPTION_SET_FILE_BYTES / (1024 * 1024)} MiB.`);
  }
}

/**
 * Lines whose texts hold a NUL byte (U+0000, which a JSON string may spell "\u0000"): PostgreSQL cannot
 * store one, so they are errors of the file like any other, with their line.
 */
export function nulByteErrors(items: readonly { line: number }[]): CaptionSetError[] {
  return items.flatMap(({ line, ...texts }) => {
    const path = nulBytePath(texts);
    return path ? [{ line, message: `${path}: ${NUL_BYTE_MESSAGE}` }] : [];
  });
}

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function countBy<T>(values: readonly T[], key: (value: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1;
  return counts;
}

/** Rows are written in batches so a 10,000-line set is a few statements, all in the one transaction. */
export async function createItems(tx: Prisma.TransactionClient, rows: Prisma.ItemCreateManyInput[]) {
  for (let i = 0; i < rows.length; i += 1000) await tx.item.createMany({ data: rows.slice(i, i + 1000) });
}

/**
 * Imports an AnyCapEval reference JSONL. Each reference's video is matched to the project's videos by
 * file name (the last segment of their imported paths).
 */
export async function importReferenceSet(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  file: ItemFile,
  options: { name?: string; citation?: string; dryRun?: boolean } = {},
): Promise<ImportSummary> {
  await requireProjectAccess(prisma, actor, projectId, "videos.import");
  checkSize(file);
  const videos = await prisma.video.findMany({ where: { projectId }, select: { id: true, relativePath: true } });
  const videoIdByPath = new Map(videos.map((video) => [video.relativePath, video.id]));
  const parsed = parseReferenceSet(file.bytes, videos.map((video) => video.relativePath));
  if (!parsed.ok) throw new ItemFileError(file.fileName, parsed.errors, parsed.unmatchedVideos);
  const nulErrors = nulByteErrors(parsed.items);
  if (nulErrors.length) throw new ItemFileError(file.fileName, nulErrors);

  const set = {
    kind: "caption_reference" as const,
    name: options.name || file.fileName,
    model: null,
    referenceSetId: null,
    fileName: file.fileName,
    sha256: sha256(file.bytes),
    itemCount: parsed.items.length,
    citation: options.citation || null,
  };
  const items = {
    count: parsed.items.length,
    videos: new Set(parsed.items.map((item) => item.videoFileName)).size,
    byType: countBy(parsed.items, (item) => item.captionType),
  };
  if (options.dryRun) return { dryRun: true, set: { ...set, id: null, importedAt: null }, items, unmatched: [] };

  const stored = await prisma.$transaction(
    async (tx) => {
      const created = await tx.itemSet.create({ data: { ...set, projectId, importedById: actor.userId }, select: setSelect });
      await createItems(
        tx,
        parsed.items.map((item) => ({
          projectId,
          setId: created.id,
          videoId: videoIdByPath.get(item.videoFileName)!,
          externalId: item.id,
          kind: "caption_reference",
          group: item.captionType,
          payload: {
            video: item.video,
            instruction: item.instruction,
            reference: item.reference,
            restriction: [item.captionType, item.restriction],
            keyPoints: item.keyPoints,
            line: item.line,
          },
        })),
      );
      return created;
    },
    { timeout: 120_000 },
  );
  return { dryRun: false, set: { ...stored, kind: "caption_reference" }, items, unmatched: [] };
}

/** The reference set, checked to be one in this project. */
async function referenceSetOf(prisma: PrismaClient, projectId: string, setId: string) {
  const set = await prisma.itemSet.findFirst({ where: { id: setId, projectId }, select: { id: true, kind: true, name: true } });
  if (!set) throw new NotFoundError("No such caption set in this project.");
  if (set.kind !== "caption_reference") throw new ConflictError(`${set.name} is a set of model outputs; outputs go against a reference set.`);
  return set;
}

/** Imports one model's outputs (JSONL or CSV) against a reference set of the project. */
export async function importModelOutputs(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  referenceSetId: string,
  file: ItemFile,
  options: { model: string; name?: string; dryRun?: boolean },
): Promise<ImportSummary> {
  await requireProjectAccess(prisma, actor, projectId, "videos.import");
  checkSize(file);
  const referenceSet = await referenceSetOf(prisma, projectId, referenceSetId);
  const references = await prisma.item.findMany({
    where: { setId: referenceSet.id },
    select: { id: true, externalId: true, videoId: true, group: true, payload: true },
  });
  const parsed = parseModelOutputs(file.bytes, {
    model: options.model,
    format: outputFileFormat(file.fileName) ?? undefined,
    references: references.map((reference) => ({ id: reference.externalId, video: (reference.payload as { video: string }).video, captionType: reference.group })),
  });
  if (!parsed.ok) throw new ItemFileError(file.fileName, parsed.errors);
  const nulErrors = nulByteErrors(parsed.items);
  if (nulErrors.length) throw new ItemFileError(file.fileName, nulErrors);
  const model = parsed.items[0]!.model;
  const existing = await prisma.itemSet.findFirst({ where: { referenceSetId: referenceSet.id, model }, select: { id: true, fileName: true } });
  if (existing) {
    throw new ConflictError(`${model} already has outputs for ${referenceSet.name} (set ${existing.id}, from ${existing.fileName}); delete that set first to replace them.`);
  }

  const referenceByExternalId = new Map(references.map((reference) => [reference.externalId, reference]));
  const set = {
    kind: "caption_outputs" as const,
    name: options.name || `${model}: ${file.fileName}`,
    model,
    referenceSetId: referenceSet.id,
    fileName: file.fileName,
    sha256: sha256(file.bytes),
    itemCount: parsed.items.length,
    citation: null,
  };
  const items = {
    count: parsed.items.length,
    videos: new Set(parsed.items.map((item) => referenceByExternalId.get(item.referenceId)!.videoId)).size,
    byType: countBy(parsed.items, (item) => referenceByExternalId.get(item.referenceId)!.group),
  };
  if (options.dryRun) return { dryRun: true, set: { ...set, id: null, importedAt: null }, items, unmatched: [] };

  const stored = await prisma.$transaction(
    async (tx) => {
      const created = await tx.itemSet.create({ data: { ...set, projectId, importedById: actor.userId }, select: setSelect });
      await createItems(
        tx,
        parsed.items.map((item) => {
          const reference = referenceByExternalId.get(item.referenceId)!;
          return {
            projectId,
            setId: created.id,
            videoId: reference.videoId,
            externalId: item.referenceId,
            kind: "caption",
            group: reference.group,
            model,
            referenceItemId: reference.id,
            payload: { output: item.output, line: item.line },
          };
        }),
      );
      return created;
    },
    { timeout: 120_000 },
  );
  return { dryRun: false, set: { ...stored, kind: "caption_outputs" }, items, unmatched: [] };
}

/** The project's item sets of the given kinds (default: caption sets), in import order, each reference set with its output sets' models. */
export async function listItemSets(prisma: PrismaClient, actor: Actor, projectId: string, kinds: readonly ItemSetKind[] = CAPTION_SET_KINDS) {
  await requireProjectAccess(prisma, actor, projectId, "project.view");
  const sets = await prisma.itemSet.findMany({
    where: { projectId, kind: { in: [...kinds] } },
    orderBy: [{ importedAt: "asc" }, { id: "asc" }],
    select: { ...setSelect, outputSets: { select: { id: true, model: true, itemCount: true }, orderBy: { model: "asc" } } },
  });
  return sets.map(({ outputSets, ...set }) => ({ ...set, ...(set.kind === "caption_reference" ? { outputs: outputSets } : {}) }));
}

/**
 * Deletes one set and exactly its items. A reference set that outputs still answer is refused, naming
 * them (its captions would lose the reference they are judged against), and so is a set whose items a
 * judge run judged (the run's results would lose their subject).
 */
export async function deleteItemSet(prisma: PrismaClient, actor: Actor, projectId: string, setId: string) {
  await requireProjectAccess(prisma, actor, projectId, "videos.import");
  const set = await prisma.itemSet.findFirst({
    where: { id: setId, projectId },
    select: { id: true, name: true, outputSets: { select: { id: true, model: true } } },
  });
  if (!set) throw new NotFoundError("No such item set in this project.");
  if (set.outputSets.length > 0) {
    throw new ConflictError(`${set.name} still has outputs of ${set.outputSets.map((o) => o.model).join(", ")}; delete those sets first.`);
  }
  const runs = await prisma.runItem.findMany({ where: { item: { setId: set.id } }, distinct: ["runId"], select: { runId: true }, take: 10 });
  if (runs.length > 0) throw new ConflictError(`Judge runs judged items of ${set.name} (runs ${runs.map((r) => r.runId).join(", ")}); deleting it would take their results' subjects.`);
  const deleted = await prisma.$transaction(async (tx) => {
    const { count } = await tx.item.deleteMany({ where: { setId: set.id } });
    await tx.itemSet.delete({ where: { id: set.id } });
    return count;
  });
  return { id: set.id, deletedItems: deleted };
}

