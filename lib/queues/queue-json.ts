import { Prisma, type PrismaClient, type ReviewQueue } from "../generated/prisma/client";
import { liveSince } from "./queue-access";
import type { QueueHandOut, QueueMode, QueueType } from "./queues.validation";

interface ReviewerProgress {
  reviewerId: string;
  email: string;
  name: string;
  done: number;
  claimed: number;
}

/**
 * Per queue: items complete (doneCount ≥ N), and per reviewer their submitted items and their items in progress: live
 * claims on items that still need a review. A claim can outlive its item's need (a stale claim submitted after the
 * item went to someone else fills it), and such a claim is nothing left to do.
 */
export async function progressOf(
  prisma: PrismaClient,
  queues: Pick<ReviewQueue, "id" | "reviewersPerItem" | "itemCount">[],
) {
  const ids = queues.map((q) => q.id);
  if (ids.length === 0) return new Map<string, { items: number; complete: number; reviewers: ReviewerProgress[] }>();
  const complete = await prisma.$queryRaw<{ queueId: string; complete: number }[]>`
    SELECT i."queueId", count(*)::int AS complete
    FROM "review_queue_item" i JOIN "review_queue" q ON q."id" = i."queueId"
    WHERE i."queueId" IN (${Prisma.join(ids)}) AND i."doneCount" >= q."reviewersPerItem"
    GROUP BY i."queueId"`;
  const perReviewer = await prisma.$queryRaw<{ queueId: string; reviewerId: string; done: number; claimed: number }[]>`
    SELECT a."queueId", a."reviewerId",
      count(*) FILTER (WHERE a."status" = 'done')::int AS done,
      count(*) FILTER (
        WHERE a."status" = 'claimed' AND a."claimedAt" > ${liveSince} AND i."doneCount" < q."reviewersPerItem"
      )::int AS claimed
    FROM "review_queue_assignment" a
      JOIN "review_queue_item" i ON i."id" = a."itemId"
      JOIN "review_queue" q ON q."id" = a."queueId"
    WHERE a."queueId" IN (${Prisma.join(ids)})
    GROUP BY a."queueId", a."reviewerId"`;
  const users = await prisma.user.findMany({
    where: { id: { in: [...new Set(perReviewer.map((r) => r.reviewerId))] } },
    select: { id: true, email: true, name: true },
  });
  const byId = new Map(users.map((u) => [u.id, u]));
  return new Map(
    queues.map((q) => [
      q.id,
      {
        items: q.itemCount,
        complete: complete.find((c) => c.queueId === q.id)?.complete ?? 0,
        reviewers: perReviewer
          .filter((r) => r.queueId === q.id && (r.done > 0 || r.claimed > 0))
          .map((r) => ({
            reviewerId: r.reviewerId,
            email: byId.get(r.reviewerId)?.email ?? "",
            name: byId.get(r.reviewerId)?.name ?? "",
            done: r.done,
            claimed: r.claimed,
          }))
          .sort((a, b) => b.done - a.done || a.email.localeCompare(b.email)),
      },
    ]),
  );
}

export function queueJson(queue: ReviewQueue) {
  return {
    id: queue.id,
    projectId: queue.projectId,
    name: queue.name,
    runId: queue.runId,
    scope: queue.scope as QueueType,
    mode: queue.mode as QueueMode,
    categories: queue.categories,
    filter: queue.filter as Record<string, string | number>,
    reviewersPerItem: queue.reviewersPerItem,
    handOut: queue.handOut as QueueHandOut,
    blind: queue.blind,
    localize: queue.localize,
    guidelines: queue.guidelines,
    itemCount: queue.itemCount,
    createdById: queue.createdById,
    createdAt: queue.createdAt,
    archivedAt: queue.archivedAt,
    archived: queue.archivedAt !== null,
  };
}

/** Who the queue is assigned to (emails; empty: every reviewer), whether to the caller, and whether they may claim from it. */
export function assignmentOf(queue: ReviewQueue, assignees: { id: string; email: string }[], userId: string) {
  const toMe = assignees.some((a) => a.id === userId);
  return { assignees: assignees.map((a) => a.email), toMe, open: assignees.length === 0 || toMe };
}
