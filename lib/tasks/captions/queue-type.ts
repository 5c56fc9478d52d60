import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { ValidationError } from "../../errors";
import type { QueueTypeInput, QueueTypeModule } from "../../task-modules/queue-type-module";
import { captionFilterOptions } from "./caption-detail";

/** With scope "captions" (a caption run): only captions of this model and/or caption type (the create-queue body's `captions`). */
const captionQueueOptions = z
  .object({
    model: z.string().trim().min(1).max(200).optional(),
    type: z.string().trim().min(1).max(100).optional(),
  })
  .default({});
type CaptionQueueOptions = z.output<typeof captionQueueOptions>;

/**
 * A queue over a caption run: one item per judged caption of the matching videos (in list order, then
 * the run's order within a video), optionally of one model and caption type.
 */
async function captionQueueItems(prisma: PrismaClient, runId: string, input: QueueTypeInput, videoIds: string[]) {
  const order = new Map(videoIds.map((id, i) => [id, i]));
  const options = (input.captions ?? {}) as CaptionQueueOptions;
  const runItems = await prisma.runItem.findMany({
    where: {
      runId,
      videoId: { in: videoIds },
      item: { ...(options.model ? { model: options.model } : {}), ...(options.type ? { group: options.type } : {}) },
    },
    select: { itemId: true, videoId: true, position: true },
  });
  // Only captions the judge scored: an unjudged caption has nothing to compare with.
  const scored = new Set(
    (
      await prisma.score.findMany({
        where: { runId, itemId: { in: runItems.map((r) => r.itemId) } },
        distinct: ["itemId"],
        select: { itemId: true },
      })
    ).map((s) => s.itemId),
  );
  const items = runItems
    .filter((r) => scored.has(r.itemId))
    .sort((a, b) => order.get(a.videoId)! - order.get(b.videoId)! || a.position - b.position);
  if (items.length === 0) throw new ValidationError("No judged caption of that run matches: the queue would be empty.");
  return {
    items,
    filter: {
      ...(options.model ? { captionModel: options.model } : {}),
      ...(options.type ? { captionType: options.type } : {}),
    },
  };
}

/** The key points of a caption's reference, in order (empty when it has none). */
async function captionKeyPoints(prisma: PrismaClient, itemId: string): Promise<string[]> {
  const item = await prisma.item.findUnique({
    where: { id: itemId },
    select: { referenceItem: { select: { payload: true } } },
  });
  const keyPoints = (item?.referenceItem?.payload as { keyPoints?: unknown } | null)?.keyPoints;
  return Array.isArray(keyPoints) ? keyPoints.map(String) : [];
}

/** What a caption queue item shows beside its targets: the caption, its instruction and reference. */
async function captionSubject(prisma: PrismaClient, itemId: string) {
  if (!itemId) return null;
  const item = await prisma.item.findUnique({
    where: { id: itemId },
    select: {
      id: true,
      model: true,
      group: true,
      externalId: true,
      payload: true,
      referenceItem: { select: { payload: true } },
    },
  });
  if (!item) return null;
  const reference = (item.referenceItem?.payload ?? {}) as {
    instruction?: string;
    reference?: string;
    restriction?: [string, string];
    keyPoints?: string[];
  };
  return {
    id: item.id,
    externalId: item.externalId,
    model: item.model,
    captionType: item.group,
    output: String((item.payload as { output?: unknown }).output ?? ""),
    instruction: reference.instruction ?? null,
    reference: reference.reference ?? null,
    restriction: reference.restriction?.[1] ?? null,
    keyPoints: reference.keyPoints ?? [],
  };
}

/** Review queues over caption runs: one item per judged caption. */
export const captionQueueType: QueueTypeModule = {
  id: "captions",
  reviews: "caption",
  noun: "caption",
  listLabel: "captions",
  describeReviewing: (filter) =>
    `each caption's judge scores${filter.captionModel ? ` · model ${String(filter.captionModel)}` : ""}${filter.captionType ? ` · type ${String(filter.captionType)}` : ""}`,
  subjectKey: "caption",
  keepsGuidelines: true,
  items: captionQueueItems,
  indexedTexts: captionKeyPoints,
  subject: (prisma, _queue, itemId) => captionSubject(prisma, itemId),
  options: { key: "captions", schema: captionQueueOptions },
  formChoices: async (prisma, access) => {
    const { models, types } = await captionFilterOptions(prisma, access);
    return { models, types };
  },
};
