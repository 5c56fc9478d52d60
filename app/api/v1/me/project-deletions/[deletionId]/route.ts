import { withActor } from "@/lib/api/handler";
import { recordIdSchema } from "@/lib/validation/ids";
import { getProjectDeletion } from "@/lib/projects/project-deletion";
import { ok } from "@/lib/api/openapi/route-builders";

/** One deletion with its progress (the account that asked for it, or a site admin; else 404). */
export const GET = withActor(
  {
    summary: "One project deletion and its progress",
    description: "`status`: queued, running, done or cancelled; `error` is the last attempt's while a worker retries.",
    responses: [ok("The deletion.")],
  },
  async (_request, actor, params, _input, prisma) => {
    const deletionId = recordIdSchema.parse(params.deletionId);
    return Response.json(await getProjectDeletion(prisma, actor, deletionId));
  },
);
