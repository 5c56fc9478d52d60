import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { releaseClaim } from "@/lib/queues/release-claim";
import { queueIdSchema } from "@/lib/queues/queues.validation";

/** Lets go of the caller's unsubmitted claim on this item → `{released}` (a submitted item is kept). */
export const POST = withActor<{ queueId: string; itemId: string }>(async (_request, actor, params) =>
  Response.json(await releaseClaim(prisma, actor, queueIdSchema.parse(params.queueId), queueIdSchema.parse(params.itemId))),
);
