import { queueLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { queueFlagSchema, queueIdSchema } from "@/lib/queues/queues.validation";
import { submitItemSchema } from "@/lib/queues/submit-item.validation";
import { submitItem, submitItemAndTakeNext } from "@/lib/queues/submit-item";
import { z } from "zod";
import { ok } from "@/lib/api/openapi/route-builders";

/**
 * `{"judgments":[{"target":"verdict"|"overall"|<scoreId>,"value","note"?,"reason"?,"expectedVersion"?}]}`.
 * With `?next=1` it also claims the caller's next item and returns it as `next` (the item API's payload, or null).
 */
export const POST = withProjectOf(
  queueLookup,
  "scores.review",
  {
    summary: "Save the judgments and mark the item done for the caller",
    description: "With `?next=1` it then claims the caller's next item and returns it as `next`.",
    params: { queueId: queueIdSchema, itemId: queueIdSchema },
    // Read by the handler: `next` alone, parsed as it comes (an empty one is not left out; an error names no field).
    query: { readBy: "handler", schema: z.object({ next: queueFlagSchema }) },
    body: { kind: "json", schema: submitItemSchema },
    responses: [ok("The saved judgments (and `next`).")],
    errors: [409],
  },
  async ({ prisma, access, record, params, request, body: input, catalogue }) => {
    const queueId = record.id;
    const itemId = queueIdSchema.parse(params.itemId);
    const takeNext = queueFlagSchema.parse(new URL(request.url).searchParams.get("next") ?? undefined) === "1";
    return Response.json(
      takeNext
        ? await submitItemAndTakeNext(prisma, access, queueId, itemId, input, catalogue)
        : await submitItem(prisma, access, queueId, itemId, input, catalogue),
    );
  },
);
