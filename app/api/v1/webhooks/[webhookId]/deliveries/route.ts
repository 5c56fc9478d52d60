import { webhookLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { listDeliveries } from "@/lib/webhooks/webhooks";
import { deliveryListQuerySchema, webhookIdSchema } from "@/lib/webhooks/webhooks.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** The webhook's delivery log, newest first (owners). */
export const GET = withProjectOf(
  webhookLookup,
  "webhooks.manage",
  {
    summary: "A webhook's delivery log, newest first (owners)",
    params: { webhookId: webhookIdSchema },
    query: deliveryListQuerySchema,
    responses: [
      ok(
        "`{deliveries: [{id, event, status, attempts, nextAttemptAt, lastAttemptAt, lastStatusCode, lastResponse, deliveredAt, createdAt, payload}]}`.",
      ),
    ],
  },
  async ({ access, prisma, record, query }) =>
    Response.json({ deliveries: await listDeliveries(prisma, access, record.id, query) }),
);
