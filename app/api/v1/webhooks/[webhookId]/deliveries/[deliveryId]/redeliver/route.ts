import { webhookLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { recordIdSchema } from "@/lib/validation/ids";
import { redeliver } from "@/lib/webhooks/webhooks";
import { webhookIdSchema } from "@/lib/webhooks/webhooks.validation";
import { accepted } from "@/lib/api/openapi/route-builders";

/** Sends a delivery again, same body and webhook-id (owners). */
export const POST = withProjectOf(
  webhookLookup,
  "webhooks.manage",
  {
    summary: "Send a delivery again, same body and webhook-id (owners)",
    params: { webhookId: webhookIdSchema },
    responses: [accepted('`{id, status: "pending"}`.')],
  },
  async ({ access, prisma, record, params }) =>
    Response.json(await redeliver(prisma, access, record.id, recordIdSchema.parse(params.deliveryId)), { status: 202 }),
);
