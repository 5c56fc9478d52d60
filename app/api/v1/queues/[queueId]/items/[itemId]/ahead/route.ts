import { queueScope, type ScopedRecord } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { claimAhead } from "@/lib/queues/claim-ahead";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { queueFlagSchema, queueIdSchema } from "@/lib/queues/queues.validation";

/**
 * While the caller works on this item: claims the item they get after it (or returns that claim) → `{itemId}`, null
 * when none. With `?payload=1` the answer also carries that item's review payload as `item`, in the same round trip.
 */
export const POST = withProjectOf<{ queueId: string; itemId: string }, ScopedRecord>(queueScope, "project.view", async ({ actor, record, params, request }) => {
  const queueId = record.id;
  const withPayload = queueFlagSchema.parse(new URL(request.url).searchParams.get("payload") ?? undefined) === "1";
  const { itemId } = await claimAhead(prisma, actor, queueId, queueIdSchema.parse(params.itemId));
  return Response.json(withPayload ? { itemId, item: itemId ? await getQueueItem(prisma, actor, queueId, itemId) : null } : { itemId });
});
