import { parseJsonBody, withActor } from "@/lib/api/handler";
import { restoreCandidate, restoreCandidateSchema } from "@/lib/tasks/construction/candidate-restores";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";

/** A curator restores a candidate that a construction filter removed: {filter, reason}. */
export const POST = withActor<{ itemId: string }>(async (request, actor, params) => {
  const itemId = recordIdSchema.parse(params.itemId);
  const input = await parseJsonBody(request, restoreCandidateSchema);
  return Response.json(await restoreCandidate(prisma, actor, itemId, input), { status: 201 });
});
