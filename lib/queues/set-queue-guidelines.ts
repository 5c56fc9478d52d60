import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { queueInProject } from "./queue-access";
import { queueJson } from "./queue-json";
import { queueGuidelinesSchema } from "./queues.validation";

/** Owners change a queue's guidelines for its reviewers (Markdown; empty: none). */
export async function setQueueGuidelines(
  prisma: PrismaClient,
  access: ProjectAccess<"queues.manage">,
  queueId: string,
  raw: unknown,
) {
  const queue = await queueInProject(prisma, access, queueId);
  const { guidelines } = queueGuidelinesSchema.parse(raw);
  return queueJson(await prisma.reviewQueue.update({ where: { id: queue.id }, data: { guidelines } }));
}
