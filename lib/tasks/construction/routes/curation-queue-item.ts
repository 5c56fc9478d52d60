import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { curationItem } from "@/lib/tasks/construction/curation-queues";
import { candidateItemIdSchema, curationQueueIdSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { curationQueueLookup } from "./project-lookups";
import { ok } from "@/lib/api/openapi/route-builders";

/** What the curation screen shows for one candidate: steps with their frames, question, options, filters, the caller's decision. */
export const GET = withProjectOf(
  curationQueueLookup,
  "project.view",
  {
    summary: "What the curation screen shows for one candidate",
    params: { queueId: curationQueueIdSchema, itemId: candidateItemIdSchema },
    responses: [ok("The candidate.")],
  },
  async ({ access, record, params }) =>
    Response.json(await curationItem(prisma, access, record.id, candidateItemIdSchema.parse(params.itemId))),
);
