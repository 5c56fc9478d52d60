import { queueLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { queueIdSchema } from "@/lib/queues/queues.validation";
import { releaseClaim } from "@/lib/queues/release-claim";
import { ok } from "@/lib/api/openapi/route-builders";
import { releasedResponseSchema } from "@/lib/api/openapi/responses";

/** Lets go of the caller's unsubmitted claim on this item → `{released}` (a submitted item is kept). */
export const POST = withProjectOf(
  queueLookup,
  "scores.review",
  {
    summary: "Let go of the caller's unsubmitted claim",
    params: { queueId: queueIdSchema, itemId: queueIdSchema },
    responses: [ok("Whether it was released.", releasedResponseSchema)],
  },
  async ({ prisma, access, record, params }) =>
    Response.json(await releaseClaim(prisma, access, record.id, queueIdSchema.parse(params.itemId))),
);
