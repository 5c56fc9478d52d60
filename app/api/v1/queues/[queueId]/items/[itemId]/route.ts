import { queueScope, type ScopedRecord } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { queueIdSchema } from "@/lib/queues/queues.validation";

/** One of the caller's items: video, frames, targets with their own judgments; the judge's values unless blind. */
export const GET = withProjectOf<{ queueId: string; itemId: string }, ScopedRecord>(queueScope, "project.view", async ({ actor, record, params }) =>
  Response.json(await getQueueItem(prisma, actor, record.id, queueIdSchema.parse(params.itemId))),
);
