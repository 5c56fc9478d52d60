import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { createCurationQueue, listCurationQueues } from "@/lib/tasks/construction/curation-queues";
import { createCurationQueueSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { ok, created } from "@/lib/api/openapi/route-builders";

/** The project's curation queues with progress, status counts and curator agreement. */
export const GET = withProject(
  "project.view",
  {
    summary: "The project's curation queues",
    responses: [ok("`{queues: [...]}`.")],
  },
  async ({ access }) => Response.json({ queues: await listCurationQueues(prisma, access) }),
);

/** `{"candidateSetId","name","curatorsPerQuestion"?: 1–5,"scope"?: "kept"|"all","assignees"?: [emails],"guidelines"?}` (owners). */
export const POST = withProject(
  "queues.manage",
  {
    summary: "Create a curation queue (owners)",
    body: { kind: "json", schema: createCurationQueueSchema },
    responses: [created("The queue.")],
  },
  async ({ access, body: input }) => Response.json(await createCurationQueue(prisma, access, input), { status: 201 }),
);
