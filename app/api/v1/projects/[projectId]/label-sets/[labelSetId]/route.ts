import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { deleteLabelSet } from "@/lib/label-sets/label-sets";
import { labelSetIdSchema } from "@/lib/label-sets/label-sets.validation";
import { projectIdSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string; labelSetId: string };

/** Deletes the label set and exactly its judgments (owners). */
export const DELETE = withActor<Params>(async (_request, actor, params) =>
  Response.json(await deleteLabelSet(prisma, actor, projectIdSchema.parse(params.projectId), labelSetIdSchema.parse(params.labelSetId))),
);
