import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { recordIdSchema } from "@/lib/validation/ids";
import { getProjectDeletion } from "@/lib/projects/project-deletion";

/** One deletion with its progress (the account that asked for it, or a site admin; else 404). */
export const GET = withActor<{ deletionId: string }>(async (_request, actor, params) => {
  const deletionId = recordIdSchema.parse(params.deletionId);
  return Response.json(await getProjectDeletion(prisma, actor, deletionId));
});
