import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { submitItem, submitItemAndTakeNext } from "@/lib/queues/submit-item";
import { queueFlagSchema, queueIdSchema, submitItemSchema } from "@/lib/queues/queues.validation";

/**
 * `{"judgments":[{"target":"verdict"|"overall"|<scoreId>,"value","note"?,"reason"?,"expectedVersion"?}]}`.
 * With `?next=1` it also claims the caller's next item and returns it as `next` (the item API's payload, or null).
 */
export const POST = withActor<{ queueId: string; itemId: string }>(async (request, actor, params) => {
  const input = await parseJsonBody(request, submitItemSchema);
  const queueId = queueIdSchema.parse(params.queueId);
  const itemId = queueIdSchema.parse(params.itemId);
  const takeNext = queueFlagSchema.parse(new URL(request.url).searchParams.get("next") ?? undefined) === "1";
  return Response.json(takeNext ? await submitItemAndTakeNext(prisma, actor, queueId, itemId, input) : await submitItem(prisma, actor, queueId, itemId, input));
});
