import type { PrismaClient } from "../../generated/prisma/client";
import { ValidationError } from "../../errors";
import type { ParsedCreateQueueInput, QueueScopeModule } from "../../queues/queue-scope";

/**
 * A queue over a caption run: one item per judged caption of the matching videos (in list order, then
 * the run's order within a video), optionally of one model and caption type.
 */
async function captionQueueItems(prisma: PrismaClient, runId: string, input: ParsedCreateQueueInput, videoIds: string[]) {
  const order = new Map(videoIds.map((id, i) => [id, i]));
  const runItems = await prisma.runItem.findMany({
    where: {
      runId,
      videoId: { in: videoIds },
      item: { ...(input.captions.model ? { model: input.captions.model } : {}), ...(input.captions.type ? { group: input.captions.type } : {}) },
    },
    select: { itemId: true, videoId: true, position: true },
  });
  // Only captions the judge scored: an unjudged caption has nothing to compare with.
  const scored = new Set((await prisma.score.findMany({ where: { runId, itemId: { in: runItems.map((r) => r.itemId) } }, distinct: ["itemId"], select: { itemId: true } })).map((s) => s.itemId));
  const items = runItems.filter((r) => scored.has(r.itemId)).sort((a, b) => order.get(a.videoId)! - order.get(b.videoId)! || a.position - b.position);
  if (items.length === 0) throw new ValidationError("No judged caption of that run matches: the queue would be empty.");
  return { items, filter: { ...(input.captions.model ? { captionModel: input.captions.model } : {}), ...(input.captions.type ? { captionType: input.captions.type } : {}) } };
}

/** The key points of a caption's reference, in order (empty when it has none). */
async function captionKeyPoints(prisma: PrismaClient, itemId: string): Promise<string[]> {
  const item = await prisma.item.findUnique({ where: { id: itemId }, select: { referenceItem: { select: { payload: true } } } });
  const keyPoints = (item?.referenceItem?.payload as { keyPoints?: unknown } | null)?.keyPoints;
  return Array.isArray(keyPoints) ? keyPoints.map(String) : [];
}

/** What a caption queue item shows beside its targets: the caption, its instruction and reference. */
async function captionSubject(prisma: PrismaClient, itemId: string) {
  if (!itemId) return null;
  const item = await prisma.item.findUnique({ where: { id: itemId }, select: { id: true, model: true, group: true, externalId: true, payload: true, referenceItem: { select: { payload: true } } } });
  if (!item) return null;
  const reference = (item.referenceItem?.payload ?? {}) as { instruction?: string; reference?: string; restriction?: [string, string]; keyPoints?: string[] };
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
export const captionQueueScope: QueueScopeModule = {
  id: "captions",
  reviews: "caption",
  noun: "caption",
  subjectKey: "caption",
  keepsGuidelines: true,
  items: captionQueueItems,
  indexedTexts: captionKeyPoints,
  subject: (prisma, _queue, itemId) => captionSubject(prisma, itemId),
};
