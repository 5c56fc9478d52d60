import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { getCurationQueue } from "@/lib/tasks/construction/curation-queues";
import { curationQueueLookup } from "./project-lookups";
import { curationQueueIdSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** The queue with its progress (candidates, complete, decisions, the caller's), status counts and curator agreement. */
export const GET = withProjectOf(
  curationQueueLookup,
  "project.view",
  {
    summary: "One curation queue",
    params: { queueId: curationQueueIdSchema },
    responses: [ok("The queue.")],
  },
  async ({ access, record }) => Response.json(await getCurationQueue(prisma, access, record.id)),
);
