import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { requireProjectAccess } from "../authz/permissions";
import { queueRun, queueVideoIds } from "./create-queue";
import { previewQueueSchema, type PreviewQueueInput } from "./queues.validation";

/** How many videos of the run match the filter: the "new queue" form shows it before creating. */
export async function previewQueue(prisma: PrismaClient, actor: Actor, projectId: string, raw: PreviewQueueInput) {
  await requireProjectAccess(prisma, actor, projectId, "queues.manage");
  const input = previewQueueSchema().parse(raw);
  const run = await queueRun(prisma, projectId, input.runId ?? input.filter.runId);
  const { ids } = await queueVideoIds(prisma, actor, projectId, run, input);
  return { runId: run.id, count: ids.length };
}
