import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { createQueue, listQueues } from "@/lib/queues/queues";
import { createQueueSchema } from "@/lib/queues/queues.validation";

type Params = { projectId: string };

export const GET = withActor<Params>(async (_request, actor, params) =>
  Response.json({ queues: await listQueues(prisma, actor, projectIdSchema.parse(params.projectId)) }),
);

/** `{"name","runId"?,"filter","sort"?,"dir"?,"scope":"verdict"|"scores","categories"?,"reviewersPerItem"?,"blind"?}` (owners). */
export const POST = withActor<Params>(async (request, actor, params) => {
  const input = await parseJsonBody(request, createQueueSchema);
  const queue = await createQueue(prisma, actor, projectIdSchema.parse(params.projectId), input);
  return Response.json({ id: queue.id, name: queue.name, runId: queue.runId, itemCount: queue.itemCount }, { status: 201 });
});
