import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { nextItem } from "@/lib/queues/next-item";
import { queueIdSchema } from "@/lib/queues/queues.validation";

/** Claims the caller's next item (or returns their open claim) → `{itemId}`; `{itemId: null}` when nothing is left for them. */
export const POST = withActor<{ queueId: string }>(async (_request, actor, params) => Response.json(await nextItem(prisma, actor, queueIdSchema.parse(params.queueId))));
