import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { submitItem } from "@/lib/queues/queues";
import { queueIdSchema, submitItemSchema } from "@/lib/queues/queues.validation";

/** `{"judgments":[{"target":"verdict"|"overall"|<scoreId>,"value","note"?,"reason"?,"expectedVersion"?}]}` */
export const POST = withActor<{ queueId: string; itemId: string }>(async (request, actor, params) => {
  const input = await parseJsonBody(request, submitItemSchema);
  return Response.json(await submitItem(prisma, actor, queueIdSchema.parse(params.queueId), queueIdSchema.parse(params.itemId), input));
});
