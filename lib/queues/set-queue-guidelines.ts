import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { queueForActor } from "./queue-access";
import { queueJson } from "./queue-json";
import { queueGuidelinesSchema } from "./queues.validation";

/** Owners change a queue's guidelines for its reviewers (Markdown; empty: none). */
export async function setQueueGuidelines(prisma: PrismaClient, actor: Actor, queueId: string, raw: unknown) {
  const queue = await queueForActor(prisma, actor, queueId, "queues.manage");
  const { guidelines } = queueGuidelinesSchema.parse(raw);
  return queueJson(await prisma.reviewQueue.update({ where: { id: queue.id }, data: { guidelines } }));
}
