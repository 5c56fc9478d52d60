import { withActor } from "@/lib/api/handler";
import { recordIdSchema } from "@/lib/validation/ids";
import { cancelProjectDeletion } from "@/lib/projects/project-deletion";
import { ok } from "@/lib/api/openapi/route-builders";

/** Cancels a deletion: one not started yet gives the project back at once; a running one after its current batch. */
export const POST = withActor(
  {
    summary: "Cancel a project deletion",
    description:
      "One no worker has started, or whose worker has not finished a batch for five minutes, gives the project back at once (status cancelled); a running one stops after its current batch (`cancelRequested`) and gives back the project with its members and the videos not yet deleted. An ended one → 409.",
    responses: [ok("The deletion.")],
    errors: [409],
  },
  async (_request, actor, params, _input, prisma) => {
    const deletionId = recordIdSchema.parse(params.deletionId);
    return Response.json(await cancelProjectDeletion(prisma, actor, deletionId));
  },
);
