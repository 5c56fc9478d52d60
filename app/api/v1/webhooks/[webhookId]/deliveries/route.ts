import { webhookScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { listDeliveries } from "@/lib/webhooks/webhooks";
import { deliveryListQuerySchema } from "@/lib/webhooks/webhooks.validation";

/** The webhook's delivery log, newest first (owners). */
export const GET = withProjectOf(webhookScope, "webhooks.manage", async ({ actor, record, request }) => {
  const query = deliveryListQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json({ deliveries: await listDeliveries(prisma, actor, record.id, query) });
});
