import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { queueForActor } from "./queue-access";
import { progressOf } from "./queue-json";

/** Items, items complete (doneCount ≥ N), and per reviewer their done and claimed counts with emails. */
export async function getQueueProgress(prisma: PrismaClient, actor: Actor, queueId: string) {
  const queue = await queueForActor(prisma, actor, queueId, "project.view");
  return (await progressOf(prisma, [queue])).get(queue.id)!;
}
