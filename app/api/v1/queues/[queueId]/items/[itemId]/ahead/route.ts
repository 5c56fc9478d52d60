import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { claimAhead } from "@/lib/queues/queues";
import { queueIdSchema } from "@/lib/queues/queues.validation";

/** While the caller works on this item: claims the item they get after it (or returns that claim) → `{itemId}`, null when none. */
export const POST = withActor<{ queueId: string; itemId: string }>(async (_request, actor, params) =>
  Response.json(await claimAhead(prisma, actor, queueIdSchema.parse(params.queueId), queueIdSchema.parse(params.itemId))),
);
