import { withProject } from "@/lib/api/with-project";
import { createWebhook, listWebhooks } from "@/lib/webhooks/webhooks";
import { createWebhookSchema } from "@/lib/webhooks/webhooks.validation";
import { ok, created } from "@/lib/api/openapi/route-builders";

/** The project's webhooks with each one's last delivery (owners); never their secrets. */
export const GET = withProject(
  "webhooks.manage",
  {
    summary: "The project's webhooks (owners), never their secrets",
    responses: [ok("`{webhooks: [{id, url, description, events, enabled, createdAt, lastDelivery}]}`.")],
  },
  async ({ access, prisma }) => Response.json({ webhooks: await listWebhooks(prisma, access) }),
);

/** Registers a webhook (owners); the answer carries its signing secret, shown this once. */
export const POST = withProject(
  "webhooks.manage",
  {
    summary: "Register a webhook (owners)",
    description:
      "Events: run.finished, run.failed, queue.finished, label_set.imported, alignment.finished. The answer's `secret` (Standard Webhooks, `whsec_…`) is shown this once. The URL follows the judge endpoints' address policy.",
    body: { kind: "json", schema: createWebhookSchema },
    responses: [created("The webhook with its `secret`.")],
  },
  async ({ access, prisma, body }) => Response.json(await createWebhook(prisma, access, body), { status: 201 }),
);
