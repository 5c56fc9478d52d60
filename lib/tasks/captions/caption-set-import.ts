/**
 * Caption sets: AnyCapEval reference sets and models' outputs against them, imported into a project as
 * items attached to its videos. Parsing (caption-sets.ts) returns every item or every error; the core
 * (lib/items/item-set-import.ts) writes the set in one transaction.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { ConflictError, NotFoundError } from "../../errors";
import { countBy, importItemSetOfKind, ItemFileError, nulByteErrors, type ItemFile } from "../../items/item-set-import";
import type { ItemSetImportOptions, ItemSetKind } from "../../task-modules/item-set-kind";
import { captionItemList, referenceItemList } from "./caption-items";
import { outputFileFormat, parseModelOutputs, parseReferenceSet } from "./caption-sets";

/** The item set kinds of the caption tasks: the caption-sets API lists these. */
export const CAPTION_SET_KINDS = ["caption_reference", "caption_outputs"] as const;

interface ReferenceSetSummary {
  items: { count: number; videos: number; byType: Record<string, number> };
  /** Reference videos with no project video of that file name (always empty on success: they are errors). */
  unmatched: string[];
}

/** An AnyCapEval reference JSONL; each reference's video is matched to the project's videos by file name. */
export const captionReferenceSetKind: ItemSetKind<ItemSetImportOptions, ReferenceSetSummary> = {
  id: "caption_reference",
  noun: "caption set",
  defaultFileName: "captions.jsonl",
  outputsKind: "caption_outputs",
  itemList: referenceItemList,
  uniformFrames: {
    itemKind: "caption_reference",
    itemsNoun: "captions",
    atPlannedSize: false,
    runsNoun: "caption runs",
  },
  async plan({ file, options, videos }) {
    const videoIdByPath = new Map(videos.map((video) => [video.relativePath, video.id]));
    const parsed = parseReferenceSet(
      file.bytes,
      videos.map((video) => video.relativePath),
    );
    if (!parsed.ok) throw new ItemFileError(file.fileName, parsed.errors, parsed.unmatchedVideos);
    const nulErrors = nulByteErrors(parsed.items);
    if (nulErrors.length) throw new ItemFileError(file.fileName, nulErrors);
    return {
      set: {
        name: options.name || file.fileName,
        model: null,
        referenceSetId: null,
        citation: options.citation || null,
      },
      items: parsed.items.map((item) => ({
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
      summary: {
        items: {
          count: parsed.items.length,
          videos: new Set(parsed.items.map((item) => item.videoFileName)).size,
          byType: countBy(parsed.items, (item) => item.captionType),
        },
        unmatched: [],
      },
    };
  },
};

/** The reference set, checked to be one in this project. */
async function referenceSetOf(prisma: PrismaClient, projectId: string, setId: string) {
  const set = await prisma.itemSet.findFirst({
    where: { id: setId, projectId },
    select: { id: true, kind: true, name: true },
  });
  if (!set) throw new NotFoundError("No such caption set in this project.");
  if (set.kind !== "caption_reference")
    throw new ConflictError(`${set.name} is a set of model outputs; outputs go against a reference set.`);
  return set;
}

interface ModelOutputsOptions {
  model: string;
  /** The project's reference set the outputs answer. */
  referenceSetId: string;
  name?: string;
  dryRun?: boolean;
}

/** One model's outputs (JSONL or CSV) against a reference set of the project; a model has one set of outputs per reference set. */
export const captionOutputsKind: ItemSetKind<ModelOutputsOptions, ReferenceSetSummary> = {
  id: "caption_outputs",
  noun: "caption set",
  defaultFileName: "captions.jsonl",
  itemList: captionItemList,
  uniformFrames: { itemKind: "caption", itemsNoun: "captions", atPlannedSize: false, runsNoun: "caption runs" },
  async plan({ prisma, projectId, file, options }) {
    const referenceSet = await referenceSetOf(prisma, projectId, options.referenceSetId);
    const references = await prisma.item.findMany({
      where: { setId: referenceSet.id },
      select: { id: true, externalId: true, videoId: true, group: true, payload: true },
    });
    const parsed = parseModelOutputs(file.bytes, {
      model: options.model,
      format: outputFileFormat(file.fileName) ?? undefined,
      references: references.map((reference) => ({
        id: reference.externalId,
        video: (reference.payload as { video: string }).video,
        captionType: reference.group,
      })),
    });
    if (!parsed.ok) throw new ItemFileError(file.fileName, parsed.errors);
    const nulErrors = nulByteErrors(parsed.items);
    if (nulErrors.length) throw new ItemFileError(file.fileName, nulErrors);
    const model = parsed.items[0]!.model;
    const existing = await prisma.itemSet.findFirst({
      where: { referenceSetId: referenceSet.id, model },
      select: { id: true, fileName: true },
    });
    if (existing) {
      throw new ConflictError(
        `${model} already has outputs for ${referenceSet.name} (set ${existing.id}, from ${existing.fileName}); delete that set first to replace them.`,
      );
    }
    const referenceByExternalId = new Map(references.map((reference) => [reference.externalId, reference]));
    return {
      set: {
        name: options.name || `${model}: ${file.fileName}`,
        model,
        referenceSetId: referenceSet.id,
        citation: null,
      },
      items: parsed.items.map((item) => {
        const reference = referenceByExternalId.get(item.referenceId)!;
        return {
          videoId: reference.videoId,
          externalId: item.referenceId,
          kind: "caption",
          group: reference.group,
          model,
          referenceItemId: reference.id,
          payload: { output: item.output, line: item.line },
        };
      }),
      summary: {
        items: {
          count: parsed.items.length,
          videos: new Set(parsed.items.map((item) => referenceByExternalId.get(item.referenceId)!.videoId)).size,
          byType: countBy(parsed.items, (item) => referenceByExternalId.get(item.referenceId)!.group),
        },
        unmatched: [],
      },
    };
  },
};

/** Imports an AnyCapEval reference JSONL. */
export function importReferenceSet(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  file: ItemFile,
  options: ItemSetImportOptions = {},
) {
  return importItemSetOfKind(prisma, access, captionReferenceSetKind, file, options);
}

/** Imports one model's outputs (JSONL or CSV) against a reference set of the project. */
export function importModelOutputs(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  referenceSetId: string,
  file: ItemFile,
  options: Omit<ModelOutputsOptions, "referenceSetId">,
) {
  return importItemSetOfKind(prisma, access, captionOutputsKind, file, { ...options, referenceSetId });
}
