import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { nextCurationItem } from "@/lib/tasks/construction/curation-queues";
import { curationQueueIdSchema, nextCurationItemQuerySchema } from "@/lib/tasks/construction/curation-queues.validation";

/** `?skip=id,…` → `{itemId, left}`: the caller's next candidate (fewer than N decisions, none of theirs), or itemId null. */
export const GET = withActor<{ queueId: string }>(async (request, actor, params) => {
  const { skip } = nextCurationItemQuerySchema.parse({ skip: new URL(request.url).searchParams.get("skip") ?? undefined });
  return Response.json(await nextCurationItem(prisma, actor, curationQueueIdSchema.parse(params.queueId), { skip }));
});
