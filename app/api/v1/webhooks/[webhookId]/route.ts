import { parseJsonBody } from "@/lib/api/handler";
import { webhookScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { deleteWebhook, updateWebhook } from "@/lib/webhooks/webhooks";
import { updateWebhookSchema } from "@/lib/webhooks/webhooks.validation";

/** Changes a webhook's URL, events, description or enabled flag, or rotates its secret (owners). */
export const PATCH = withProjectOf(webhookScope, "webhooks.manage", async ({ actor, record, request }) =>
  Response.json(await updateWebhook(prisma, actor, record.id, await parseJsonBody(request, updateWebhookSchema))),
);

/** Deletes a webhook with its delivery log (owners). */
export const DELETE = withProjectOf(webhookScope, "webhooks.manage", async ({ actor, record }) => {
  await deleteWebhook(prisma, actor, record.id);
  return new Response(null, { status: 204 });
});
