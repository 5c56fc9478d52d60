import { parseJsonBody } from "@/lib/api/handler";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { restoreCandidate, restoreCandidateSchema } from "@/lib/tasks/construction/candidate-restores";
import { candidateItemScope } from "@/lib/tasks/construction/project-scopes";
import { recordIdSchema } from "@/lib/validation/ids";

/** A curator restores a candidate that a construction filter removed: {filter, reason}. */
export const POST = withProjectOf(candidateItemScope(recordIdSchema), "project.view", async ({ actor, record, request }) => {
  const itemId = record.id;
  const input = await parseJsonBody(request, restoreCandidateSchema);
  return Response.json(await restoreCandidate(prisma, actor, itemId, input), { status: 201 });
});
