import { z } from "zod";
import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { queueStateSchema, updateQueueState } from "@/lib/queues/queue-states";
import { getQueue } from "@/lib/queues/get-queue";
import { setQueueGuidelines } from "@/lib/queues/set-queue-guidelines";
import { queueGuidelinesSchema, queueIdSchema } from "@/lib/queues/queues.validation";

/** The queue, its progress (items, complete, per reviewer), whether it is finished, its assignees and the caller's own counts. */
export const GET = withActor<{ queueId: string }>(async (_request, actor, params) => Response.json(await getQueue(prisma, actor, queueIdSchema.parse(params.queueId))));

/**
 * `{"archived"?: boolean, "assignees"?: [emails]}` (owners): archive / restore, assign to named reviewers
 * (`[]`: everyone); or `{"guidelines"}`: owners change the queue's guidelines (Markdown) → the queue.
 */
export const PATCH = withActor<{ queueId: string }>(async (request, actor, params) => {
  const queueId = queueIdSchema.parse(params.queueId);
  const body = await parseJsonBody(request, z.record(z.string(), z.unknown()));
  // Two kinds of change, each with its own schema (and its own clear error): guidelines, or the queue's state.
  if ("guidelines" in body) return Response.json(await setQueueGuidelines(prisma, actor, queueId, queueGuidelinesSchema.strict().parse(body)));
  return Response.json(await updateQueueState(prisma, actor, queueId, queueStateSchema.parse(body)));
});
