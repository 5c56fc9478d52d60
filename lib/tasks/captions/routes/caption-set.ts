import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { deleteItemSet } from "@/lib/items/item-sets";
import { itemIdSchema } from "@/lib/items/items.validation";

type Params = { projectId: string; setId: string };

/** Deletes the set and exactly its items (owners); a reference set that outputs still answer → 409. */
export const DELETE = withProject<Params>("project.view", async ({ actor, params, project }) => Response.json(await deleteItemSet(prisma, actor, project.id, itemIdSchema.parse(params.setId))));
