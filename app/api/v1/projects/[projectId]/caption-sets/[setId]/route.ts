import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { deleteItemSet } from "@/lib/items/item-sets";
import { itemIdSchema } from "@/lib/items/items.validation";
import { projectIdSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string; setId: string };

/** Deletes the set and exactly its items (owners); a reference set that outputs still answer → 409. */
export const DELETE = withActor<Params>(async (_request, actor, params) =>
  Response.json(await deleteItemSet(prisma, actor, projectIdSchema.parse(params.projectId), itemIdSchema.parse(params.setId))),
);
