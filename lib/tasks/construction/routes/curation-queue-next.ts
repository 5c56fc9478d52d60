import { withProjectOf } from "@/lib/api/with-project";
import { accessFor } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { nextCurationItem } from "@/lib/tasks/construction/curation-queues";
import {
  nextCurationItemQuerySchema,
  curationQueueIdSchema,
} from "@/lib/tasks/construction/curation-queues.validation";
import { nextCurationItemAnswerSchema } from "@/lib/tasks/construction/curation-queue-next.types";
import { curationQueueLookup } from "./project-lookups";
import { ok } from "@/lib/api/openapi/route-builders";

/** `?skip=id,…` → `{itemId, left}`: the caller's next candidate (fewer than N decisions, none of theirs), or itemId null. */
export const GET = withProjectOf(
  curationQueueLookup,
  "project.view",
  {
    summary: "The caller's next candidate",
    params: { queueId: curationQueueIdSchema },
    // Read by the handler: `skip` alone, parsed as it comes (an empty one is not left out).
    query: { readBy: "handler", schema: nextCurationItemQuerySchema },
    responses: [ok("`{itemId, left}`.", nextCurationItemAnswerSchema)],
  },
  async ({ access, record, request }) => {
    const { skip } = nextCurationItemQuerySchema.parse({
      skip: new URL(request.url).searchParams.get("skip") ?? undefined,
    });
    return Response.json(await nextCurationItem(prisma, accessFor(access, "scores.review"), record.id, { skip }));
  },
);
