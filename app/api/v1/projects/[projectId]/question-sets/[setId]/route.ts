import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { deleteItemSet } from "@/lib/items/item-sets";
import { itemIdSchema } from "@/lib/items/items.validation";
import { projectIdSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string; setId: string };

/** Deletes the question set and exactly its questions (owners); a set a QA run judged → 409. */
export const DELETE = withActor<Params>(async (_request, actor, params) =>
  Response.json(await deleteItemSet(prisma, actor, projectIdSchema.parse(params.projectId), itemIdSchema.parse(params.setId))),
);
