/**
 * Review queues over a rubric run whose subject is an item: one queue item per judged item of the matching
 * videos (in list order, then the run's order within a video). Each rubric task with an item subject registers
 * its own scope (its subject kind is the task's item kind), all sharing the subject key `rubricItem`, so the
 * review screen shows any rubric's item the same way: its declared fields beside the run's frames of its video.
 * The targets are the item's criterion scores, read like any item's (lib/queues/item-score-targets.ts).
 */
import type { PrismaClient } from "../generated/prisma/client";
import { ValidationError } from "../errors";
import type { GenericItemPayload } from "../items/generic-items";
import type { QueueTypeInput, QueueTypeModule } from "../task-modules/queue-type-module";
import { rubricItemKind } from "./rubric-declaration";
import type { RubricDefinition } from "./rubric-definition";

/** The queue type id of a rubric task's item runs. */
export function rubricItemQueueTypeId(key: number): string {
  return `rubric_${key}_items`;
}

/** What a rubric item queue item shows beside its targets: the item's id in its file and its declared fields, labelled. */
export interface RubricItemSubject {
  id: string;
  externalId: string;
  fields: { id: string; label: string; value: string }[];
}

async function rubricItemQueueItems(prisma: PrismaClient, runId: string, _input: QueueTypeInput, videoIds: string[]) {
  const order = new Map(videoIds.map((id, i) => [id, i]));
  const runItems = await prisma.runItem.findMany({
    where: { runId, videoId: { in: videoIds } },
    select: { itemId: true, videoId: true, position: true },
  });
  // Only items the judge scored: an unjudged item has nothing to compare with.
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
  if (items.length === 0) throw new ValidationError("No judged item of that run matches: the queue would be empty.");
  return { items, filter: {} };
}

/** The item as the review screen shows it, with the fields of the definition the run pinned (its labels and order). */
async function rubricItemSubject(
  prisma: PrismaClient,
  runId: string,
  itemId: string,
): Promise<RubricItemSubject | null> {
  if (!itemId) return null;
  const [item, run] = await Promise.all([
    prisma.item.findUnique({ where: { id: itemId }, select: { id: true, externalId: true, payload: true } }),
    prisma.judgeRun.findUnique({ where: { id: runId }, select: { settings: true } }),
  ]);
  if (!item) return null;
  const definition = (run?.settings as { definition?: RubricDefinition } | null)?.definition;
  const stored = (item.payload as Partial<GenericItemPayload> | null)?.fields ?? {};
  const declared =
    definition?.subject.kind === "item"
      ? definition.subject.fields
      : Object.keys(stored).map((id) => ({ id, label: id }));
  return {
    id: item.id,
    externalId: item.externalId,
    fields: declared.map((field) => ({ id: field.id, label: field.label, value: String(stored[field.id] ?? "") })),
  };
}

/** The queue type of one rubric task whose subject is an item. */
export function rubricItemQueueType(key: number, name: string, projectId: string): QueueTypeModule {
  return {
    id: rubricItemQueueTypeId(key),
    projectId,
    reviews: rubricItemKind(key),
    noun: "item",
    listLabel: `${name} items`,
    describeReviewing: () => `each item's criteria (${name})`,
    subjectKey: "rubricItem",
    keepsGuidelines: true,
    items: rubricItemQueueItems,
    subject: (prisma, queue, itemId) => rubricItemSubject(prisma, queue.runId, itemId),
  };
}
