import { withProject } from "@/lib/api/with-project";
import { deleteLabelSet } from "@/lib/label-sets/label-sets";
import { labelSetDeletedAnswerSchema, labelSetIdSchema } from "@/lib/label-sets/label-sets.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** Deletes the label set and exactly its judgments (owners). */
export const DELETE = withProject(
  "videos.import",
  {
    summary: "Delete a label set and exactly its judgments (owners)",
    params: { labelSetId: labelSetIdSchema },
    responses: [ok("What was deleted: `{deletedJudgments}`.", labelSetDeletedAnswerSchema)],
  },
  async ({ prisma, access, params }) =>
    Response.json(await deleteLabelSet(prisma, access, labelSetIdSchema.parse(params.labelSetId))),
);
