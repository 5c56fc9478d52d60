import { withProject } from "@/lib/api/with-project";
import { recordIdSchema } from "@/lib/validation/ids";
import { cancelAlignment } from "@/lib/alignment/alignment-runs";
import { ok } from "@/lib/api/openapi/route-builders";

/** Owners: stops a queued or running alignment (its judge run in progress is cancelled too). */
export const POST = withProject(
  "rubrics.manage",
  {
    summary: "Stop a queued or running alignment (owners)",
    responses: [ok('`{id, status: "cancelled"}`.')],
  },
  async ({ prisma, access, params }) =>
    Response.json(await cancelAlignment(prisma, access, recordIdSchema.parse(params.alignmentId))),
);
