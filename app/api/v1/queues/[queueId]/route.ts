import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { queueStateSchema, updateQueueState } from "@/lib/queues/queue-states";
import { getQueue } from "@/lib/queues/queues";
import { queueIdSchema } from "@/lib/queues/queues.validation";

/** The queue, its progress (items, complete, per reviewer), whether it is finished, its assignees and the caller's own counts. */
export const GET = withActor<{ queueId: string }>(async (_request, actor, params) => Response.json(await getQueue(prisma, actor, queueIdSchema.parse(params.queueId))));

/** `{"archived"?: boolean, "assignees"?: [emails]}` (owners): archive / restore, assign to named reviewers (`[]`: everyone). */
export const PATCH = withActor<{ queueId: string }>(async (request, actor, params) =>
  Response.json(await updateQueueState(prisma, actor, queueIdSchema.parse(params.queueId), await parseJsonBody(request, queueStateSchema))),
);
