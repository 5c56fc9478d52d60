import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { restoreCandidate, restoreCandidateSchema } from "@/lib/tasks/construction/candidate-restores";
import { candidateItemLookup } from "./project-lookups";
import { recordIdSchema } from "@/lib/validation/ids";
import { created } from "@/lib/api/openapi/route-builders";

/** A curator restores a candidate that a construction filter removed: {filter, reason}. */
export const POST = withProjectOf(
  candidateItemLookup(recordIdSchema),
  "scores.review",
  {
    summary: "Restore a candidate a construction filter removed",
    body: { kind: "json", schema: restoreCandidateSchema },
    responses: [created("The restore.")],
  },
  async ({ access, record, body: input }) => {
    const itemId = record.id;
    return Response.json(await restoreCandidate(prisma, access, itemId, input), { status: 201 });
  },
);
