import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { deleteItemSet } from "@/lib/items/item-sets";
import { itemIdSchema } from "@/lib/items/items.validation";

type Params = { projectId: string; setId: string };

/** Deletes the question set and exactly its questions (owners); a set a QA run judged → 409. */
export const DELETE = withProject<Params>("project.view", async ({ actor, params, project }) => Response.json(await deleteItemSet(prisma, actor, project.id, itemIdSchema.parse(params.setId))));
