import { parseJsonBody } from "@/lib/api/handler";
import { queueScope, type ScopedRecord } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { queueFlagSchema, queueIdSchema } from "@/lib/queues/queues.validation";
import { submitItemSchema } from "@/lib/queues/submit-item.validation";
import { submitItem, submitItemAndTakeNext } from "@/lib/queues/submit-item";

/**
 * `{"judgments":[{"target":"verdict"|"overall"|<scoreId>,"value","note"?,"reason"?,"expectedVersion"?}]}`.
 * With `?next=1` it also claims the caller's next item and returns it as `next` (the item API's payload, or null).
 */
export const POST = withProjectOf<{ queueId: string; itemId: string }, ScopedRecord>(queueScope, "project.view", async ({ actor, record, params, request }) => {
  const input = await parseJsonBody(request, submitItemSchema);
  const queueId = record.id;
  const itemId = queueIdSchema.parse(params.itemId);
  const takeNext = queueFlagSchema.parse(new URL(request.url).searchParams.get("next") ?? undefined) === "1";
  return Response.json(takeNext ? await submitItemAndTakeNext(prisma, actor, queueId, itemId, input) : await submitItem(prisma, actor, queueId, itemId, input));
});
