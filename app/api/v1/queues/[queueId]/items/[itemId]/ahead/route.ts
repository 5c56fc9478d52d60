import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { claimAhead } from "@/lib/queues/claim-ahead";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { queueFlagSchema, queueIdSchema } from "@/lib/queues/queues.validation";

/**
 * While the caller works on this item: claims the item they get after it (or returns that claim) → `{itemId}`, null
 * when none. With `?payload=1` the answer also carries that item's review payload as `item`, in the same round trip.
 */
export const POST = withActor<{ queueId: string; itemId: string }>(async (request, actor, params) => {
  const queueId = queueIdSchema.parse(params.queueId);
  const withPayload = queueFlagSchema.parse(new URL(request.url).searchParams.get("payload") ?? undefined) === "1";
  const { itemId } = await claimAhead(prisma, actor, queueId, queueIdSchema.parse(params.itemId));
  return Response.json(withPayload ? { itemId, item: itemId ? await getQueueItem(prisma, actor, queueId, itemId) : null } : { itemId });
});
