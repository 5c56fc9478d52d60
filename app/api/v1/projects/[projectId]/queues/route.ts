import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { createQueue, listQueues } from "@/lib/queues/queues";
import { archivedFlagSchema, createQueueSchema } from "@/lib/queues/queues.validation";

type Params = { projectId: string };

/** `?archived=1`: the archived queues instead of the open ones. */
export const GET = withActor<Params>(async (request, actor, params) => {
  const archived = archivedFlagSchema.parse(new URL(request.url).searchParams.get("archived") ?? undefined);
  return Response.json({ queues: await listQueues(prisma, actor, projectIdSchema.parse(params.projectId), { archived: archived === "1" || archived === "true" }) });
});

/** `{"name","runId"?,"filter","sort"?,"dir"?,"scope":"verdict"|"scores","categories"?,"reviewersPerItem"?,"blind"?}` (owners). */
export const POST = withActor<Params>(async (request, actor, params) => {
  const input = await parseJsonBody(request, createQueueSchema);
  const queue = await createQueue(prisma, actor, projectIdSchema.parse(params.projectId), input);
  return Response.json({ id: queue.id, name: queue.name, runId: queue.runId, itemCount: queue.itemCount }, { status: 201 });
});
