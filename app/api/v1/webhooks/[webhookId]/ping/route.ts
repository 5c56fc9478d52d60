import { webhookScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { pingWebhook } from "@/lib/webhooks/webhooks";

/** Queues a signed `ping` to the webhook (owners); a worker sends it within seconds. */
export const POST = withProjectOf(webhookScope, "webhooks.manage", async ({ actor, record }) => Response.json(await pingWebhook(prisma, actor, record.id), { status: 202 }));
