import { webhookLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { deleteWebhook, updateWebhook } from "@/lib/webhooks/webhooks";
import { updateWebhookSchema, webhookIdSchema } from "@/lib/webhooks/webhooks.validation";
import { ok, noContent } from "@/lib/api/openapi/route-builders";

/** Changes a webhook's URL, events, description or enabled flag, or rotates its secret (owners). */
export const PATCH = withProjectOf(
  webhookLookup,
  "webhooks.manage",
  {
    summary: "Change a webhook, or rotate its secret (owners)",
    params: { webhookId: webhookIdSchema },
    body: { kind: "json", schema: updateWebhookSchema },
    responses: [ok("The webhook (with the new `secret` after `rotateSecret`).")],
  },
  async ({ access, prisma, record, body }) => Response.json(await updateWebhook(prisma, access, record.id, body)),
);

/** Deletes a webhook with its delivery log (owners). */
export const DELETE = withProjectOf(
  webhookLookup,
  "webhooks.manage",
  {
    summary: "Delete a webhook and its delivery log (owners)",
    params: { webhookId: webhookIdSchema },
    responses: [noContent("Deleted.")],
  },
  async ({ access, prisma, record }) => {
    await deleteWebhook(prisma, access, record.id);
    return new Response(null, { status: 204 });
  },
);
