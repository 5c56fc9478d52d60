/**
 * Whole or withheld: an aggregate, a ranking or an export is computed from all its data or not shown. Where blind
 * review hides some of its videos' judge values from the caller (see blindVideoIdsFor), the whole view is withheld
 * with a `WithheldError` (HTTP 409, code `withheld`) that names the blind queues and how many items the caller has
 * left in each, so the page and every download say why and until when, and no number differs with who looks.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { AppError } from "../errors";
import { blindVideoIdsFor } from "./judge-visibility";

/** A blind queue the caller is reviewing that holds some of the view's videos. */
export interface BlindQueueHold {
  id: string;
  name: string;
  /** Items of the queue the caller has not submitted and could still submit (held by them or still needing reviewers). */
  itemsLeft: number;
}

export interface Withheld {
  queues: BlindQueueHold[];
  /** Of the view's videos, how many are blind to the caller. */
  blindVideos: number;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "hidden while you review "Q" blind: 3 items left" (each queue named, when there are several). */
export function withheldReason(withheld: Withheld): string {
  const queues = withheld.queues.map((q) => `"${q.name}" blind: ${plural(q.itemsLeft, "item")} left`);
  return `hidden while you review ${queues.length ? queues.join("; ") : "a queue blind"}`;
}

/** The view is withheld: 409 `withheld`, `details.withheld` the queues and counts, the message saying what and why. */
export class WithheldError extends AppError {
  constructor(
    readonly what: string,
    readonly withheld: Withheld,
  ) {
    super(
      409,
      "withheld",
      `${what} is ${withheldReason(withheld)}. It is computed from every video, so it is shown once you have submitted them.`,
      { withheld },
    );
  }
}

/** The blind queues holding `blind` videos of the caller, each with the items they have left. */
async function holdingQueues(
  prisma: PrismaClient,
  userId: string,
  blind: readonly string[],
): Promise<BlindQueueHold[]> {
  const rows = await prisma.$queryRaw<{ id: string; name: string; itemsLeft: bigint }[]>`
    SELECT q.id, q.name,
      (SELECT count(*) FROM review_queue_item i
        WHERE i."queueId" = q.id
          AND NOT EXISTS (SELECT 1 FROM review_queue_assignment a WHERE a."itemId" = i.id AND a."reviewerId" = ${userId} AND a.status = 'done')
          AND (i."doneCount" < q."reviewersPerItem"
            OR EXISTS (SELECT 1 FROM review_queue_assignment a WHERE a."itemId" = i.id AND a."reviewerId" = ${userId} AND a.status = 'claimed'))
      ) AS "itemsLeft"
    FROM review_queue q
    WHERE q.blind AND q."archivedAt" IS NULL
      AND EXISTS (SELECT 1 FROM review_queue_assignment a WHERE a."queueId" = q.id AND a."reviewerId" = ${userId})
      AND EXISTS (
        SELECT 1 FROM review_queue_item i
        WHERE i."queueId" = q.id AND i."videoId" = ANY(${[...blind]}::text[])
          AND NOT EXISTS (SELECT 1 FROM review_queue_assignment a WHERE a."itemId" = i.id AND a."reviewerId" = ${userId} AND a.status = 'done')
      )
    ORDER BY q.name, q.id`;
  return rows
    .map((row) => ({ id: row.id, name: row.name, itemsLeft: Number(row.itemsLeft) }))
    .filter((q) => q.itemsLeft > 0);
}

/** Why the view over `videoIds` is withheld from the caller, or null when none of them is blind to them. */
export async function withheldFor(
  prisma: PrismaClient,
  userId: string,
  videoIds: readonly string[],
): Promise<Withheld | null> {
  const blind = await blindVideoIdsFor(prisma, userId, videoIds);
  if (blind.size === 0) return null;
  return { queues: await holdingQueues(prisma, userId, [...blind]), blindVideos: blind.size };
}

/** Throws `WithheldError` naming `what` when any of `videoIds` is blind to the caller: the view is whole or not shown. */
export async function requireWholeView(
  prisma: PrismaClient,
  userId: string,
  videoIds: readonly string[],
  what: string,
): Promise<void> {
  const withheld = await withheldFor(prisma, userId, videoIds);
  if (withheld) throw new WithheldError(what, withheld);
}
