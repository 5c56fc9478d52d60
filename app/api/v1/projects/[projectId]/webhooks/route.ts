import { parseJsonBody } from "@/lib/api/handler";
import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { createWebhook, listWebhooks } from "@/lib/webhooks/webhooks";
import { createWebhookSchema } from "@/lib/webhooks/webhooks.validation";

type Params = { projectId: string };

/** The project's webhooks with each one's last delivery (owners); never their secrets. */
export const GET = withProject<Params>("webhooks.manage", async ({ actor, project }) => Response.json({ webhooks: await listWebhooks(prisma, actor, project.id) }));

/** Registers a webhook (owners); the answer carries its signing secret, shown this once. */
export const POST = withProject<Params>("webhooks.manage", async ({ request, actor, project }) =>
  Response.json(await createWebhook(prisma, actor, project.id, await parseJsonBody(request, createWebhookSchema)), { status: 201 }),
);
