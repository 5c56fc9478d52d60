import { queueLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { getQueueItem } from "@/lib/queues/get-queue-item";
import { queueIdSchema } from "@/lib/queues/queues.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** One of the caller's items: video, frames, targets with their own judgments; the judge's values unless blind. */
export const GET = withProjectOf(
  queueLookup,
  "scores.review",
  {
    summary: "One of the caller's items",
    params: { queueId: queueIdSchema, itemId: queueIdSchema },
    responses: [ok("The item's review payload.")],
  },
  async ({ prisma, access, record, params, catalogue }) =>
    Response.json(await getQueueItem(prisma, access, record.id, queueIdSchema.parse(params.itemId), catalogue)),
);
