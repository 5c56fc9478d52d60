import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { createQueue } from "@/lib/queues/create-queue";
import { listQueues } from "@/lib/queues/list-queues";
import { archivedFlagSchema, createQueueSchema } from "@/lib/queues/queues.validation";

type Params = { projectId: string };

/** `?archived=1`: the archived queues instead of the open ones. */
export const GET = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const archived = archivedFlagSchema.parse(new URL(request.url).searchParams.get("archived") ?? undefined);
  return Response.json({ queues: await listQueues(prisma, actor, project.id, { archived: archived === "1" || archived === "true" }) });
});

/** `{"name","runId"?,"filter","sort"?,"dir"?,"scope":"verdict"|"scores","categories"?,"reviewersPerItem"?,"blind"?}` (owners). */
export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const input = await parseJsonBody(request, createQueueSchema());
  const queue = await createQueue(prisma, actor, project.id, input);
  return Response.json({ id: queue.id, name: queue.name, runId: queue.runId, itemCount: queue.itemCount }, { status: 201 });
});
