import { webhookLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { pingWebhook } from "@/lib/webhooks/webhooks";
import { webhookIdSchema } from "@/lib/webhooks/webhooks.validation";
import { accepted } from "@/lib/api/openapi/route-builders";

/** Queues a signed `ping` to the webhook (owners); a worker sends it within seconds. */
export const POST = withProjectOf(
  webhookLookup,
  "webhooks.manage",
  {
    summary: "Send a signed test delivery (owners)",
    params: { webhookId: webhookIdSchema },
    responses: [accepted("`{deliveryId}`; a worker sends it within seconds.")],
  },
  async ({ access, prisma, record }) => Response.json(await pingWebhook(prisma, access, record.id), { status: 202 }),
);
