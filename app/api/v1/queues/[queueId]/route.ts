import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { getQueue } from "@/lib/queues/queues";
import { queueIdSchema } from "@/lib/queues/queues.validation";

/** The queue, its progress (items, complete, per reviewer) and the caller's own counts. */
export const GET = withActor<{ queueId: string }>(async (_request, actor, params) => Response.json(await getQueue(prisma, actor, queueIdSchema.parse(params.queueId))));
