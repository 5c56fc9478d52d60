import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { createCurationQueue, listCurationQueues } from "@/lib/tasks/construction/curation-queues";
import { createCurationQueueSchema } from "@/lib/tasks/construction/curation-queues.validation";

type Params = { projectId: string };

/** The project's curation queues with progress, status counts and curator agreement. */
export const GET = withProject<Params>("project.view", async ({ actor, project }) => Response.json({ queues: await listCurationQueues(prisma, actor, project.id) }));

/** `{"candidateSetId","name","curatorsPerQuestion"?: 1–5,"scope"?: "kept"|"all","assignees"?: [emails],"guidelines"?}` (owners). */
export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const input = await parseJsonBody(request, createCurationQueueSchema);
  return Response.json(await createCurationQueue(prisma, actor, project.id, input), { status: 201 });
});
