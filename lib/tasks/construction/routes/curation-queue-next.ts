import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { nextCurationItem } from "@/lib/tasks/construction/curation-queues";
import { nextCurationItemQuerySchema } from "@/lib/tasks/construction/curation-queues.validation";
import { curationQueueScope } from "@/lib/tasks/construction/project-scopes";

/** `?skip=id,…` → `{itemId, left}`: the caller's next candidate (fewer than N decisions, none of theirs), or itemId null. */
export const GET = withProjectOf(curationQueueScope, "project.view", async ({ actor, record, request }) => {
  const { skip } = nextCurationItemQuerySchema.parse({ skip: new URL(request.url).searchParams.get("skip") ?? undefined });
  return Response.json(await nextCurationItem(prisma, actor, record.id, { skip }));
});
