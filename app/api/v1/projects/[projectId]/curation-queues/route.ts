import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { createCurationQueue, listCurationQueues } from "@/lib/tasks/construction/curation-queues";
import { createCurationQueueSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { projectIdSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string };

/** The project's curation queues with progress, status counts and curator agreement. */
export const GET = withActor<Params>(async (_request, actor, params) => Response.json({ queues: await listCurationQueues(prisma, actor, projectIdSchema.parse(params.projectId)) }));

/** `{"candidateSetId","name","curatorsPerQuestion"?: 1–5,"scope"?: "kept"|"all","assignees"?: [emails],"guidelines"?}` (owners). */
export const POST = withActor<Params>(async (request, actor, params) => {
  const input = await parseJsonBody(request, createCurationQueueSchema);
  return Response.json(await createCurationQueue(prisma, actor, projectIdSchema.parse(params.projectId), input), { status: 201 });
});
