import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { getQueue, setQueueGuidelines } from "@/lib/queues/queues";
import { queueGuidelinesSchema, queueIdSchema } from "@/lib/queues/queues.validation";

/** The queue, its progress (items, complete, per reviewer) and the caller's own counts. */
export const GET = withActor<{ queueId: string }>(async (_request, actor, params) => Response.json(await getQueue(prisma, actor, queueIdSchema.parse(params.queueId))));

/** `{"guidelines"}`: owners change the queue's guidelines (Markdown) → the queue. */
export const PATCH = withActor<{ queueId: string }>(async (request, actor, params) => {
  const queueId = queueIdSchema.parse(params.queueId);
  return Response.json(await setQueueGuidelines(prisma, actor, queueId, await parseJsonBody(request, queueGuidelinesSchema.strict())));
});
