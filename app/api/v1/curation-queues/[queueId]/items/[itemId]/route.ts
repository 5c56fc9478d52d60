import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { curationItem } from "@/lib/tasks/construction/curation-queues";
import { candidateItemIdSchema, curationQueueIdSchema } from "@/lib/tasks/construction/curation-queues.validation";

/** What the curation screen shows for one candidate: steps with their frames, question, options, filters, the caller's decision. */
export const GET = withActor<{ queueId: string; itemId: string }>(async (_request, actor, params) =>
  Response.json(await curationItem(prisma, actor, curationQueueIdSchema.parse(params.queueId), candidateItemIdSchema.parse(params.itemId))),
);
