import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { queueIdSchema } from "@/lib/queues/queues.validation";

/** One of the caller's items: video, frames, targets with their own judgments; the judge's values unless blind. */
export const GET = withActor<{ queueId: string; itemId: string }>(async (_request, actor, params) =>
  Response.json(await getQueueItem(prisma, actor, queueIdSchema.parse(params.queueId), queueIdSchema.parse(params.itemId))),
);
