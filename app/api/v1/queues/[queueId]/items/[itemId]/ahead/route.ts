import { queueLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { claimAhead } from "@/lib/queues/claim-ahead";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { queueFlagSchema, queueIdSchema } from "@/lib/queues/queues.validation";
import { z } from "zod";
import { ok } from "@/lib/api/openapi/route-builders";

/**
 * While the caller works on this item: claims the item they get after it (or returns that claim) → `{itemId}`, null
 * when none. With `?payload=1` the answer also carries that item's review payload as `item`, in the same round trip.
 */
export const POST = withProjectOf(
  queueLookup,
  "scores.review",
  {
    summary: "Claim the item after this one while the caller works on it",
    params: { queueId: queueIdSchema, itemId: queueIdSchema },
    // Read by the handler: `payload` alone, parsed as it comes (an empty one is not left out; an error names no field).
    query: { readBy: "handler", schema: z.object({ payload: queueFlagSchema }) },
    responses: [ok("`{itemId}` (null when none), with `payload=1` also `item`.")],
  },
  async ({ prisma, access, record, params, request, catalogue }) => {
    const queueId = record.id;
    const withPayload = queueFlagSchema.parse(new URL(request.url).searchParams.get("payload") ?? undefined) === "1";
    const { itemId } = await claimAhead(prisma, access, queueId, queueIdSchema.parse(params.itemId));
    return Response.json(
      withPayload
        ? { itemId, item: itemId ? await getQueueItem(prisma, access, queueId, itemId, catalogue) : null }
        : { itemId },
    );
  },
);
