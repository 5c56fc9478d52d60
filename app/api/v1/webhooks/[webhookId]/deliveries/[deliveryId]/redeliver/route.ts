import { webhookScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";
import { redeliver } from "@/lib/webhooks/webhooks";

/** Sends a delivery again, same body and webhook-id (owners). */
export const POST = withProjectOf<{ webhookId: string; deliveryId: string }, { id: string; projectId: string }>(webhookScope, "webhooks.manage", async ({ actor, record, params }) =>
  Response.json(await redeliver(prisma, actor, record.id, recordIdSchema.parse(params.deliveryId)), { status: 202 }),
);
