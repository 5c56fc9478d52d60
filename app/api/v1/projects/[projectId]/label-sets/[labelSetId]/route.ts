import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { deleteLabelSet } from "@/lib/label-sets/label-sets";
import { labelSetIdSchema } from "@/lib/label-sets/label-sets.validation";

type Params = { projectId: string; labelSetId: string };

/** Deletes the label set and exactly its judgments (owners). */
export const DELETE = withProject<Params>("project.view", async ({ actor, params, project }) =>
  Response.json(await deleteLabelSet(prisma, actor, project.id, labelSetIdSchema.parse(params.labelSetId))),
);
