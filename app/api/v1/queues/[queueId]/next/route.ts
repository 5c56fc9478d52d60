import { queueLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { nextItem } from "@/lib/queues/next-item";
import { queueIdSchema } from "@/lib/queues/queues.validation";
import { ok } from "@/lib/api/openapi/route-builders";
import { nextItemResponseSchema } from "@/lib/api/openapi/responses";

/** Claims the caller's next item (or returns their open claim) → `{itemId}`; `{itemId: null}` when nothing is left for them. */
export const POST = withProjectOf(
  queueLookup,
  "scores.review",
  {
    summary: "Claim the caller's next item (or return their open claim)",
    params: { queueId: queueIdSchema },
    responses: [ok("The item's id.", nextItemResponseSchema)],
  },
  async ({ prisma, access, record }) => Response.json(await nextItem(prisma, access, record.id)),
);
