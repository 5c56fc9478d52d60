import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";
import { cancelProjectDeletion } from "@/lib/projects/project-deletion";

/** Cancels a deletion: one not started yet gives the project back at once; a running one after its current batch. */
export const POST = withActor<{ deletionId: string }>(async (_request, actor, params) => {
  const deletionId = recordIdSchema.parse(params.deletionId);
  return Response.json(await cancelProjectDeletion(prisma, actor, deletionId));
});
