import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { deleteItemSet } from "@/lib/items/item-sets";
import { itemIdSchema } from "@/lib/items/items.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** Deletes the set and exactly its items (owners); a reference set that outputs still answer → 409. */
export const DELETE = withProject(
  "videos.import",
  {
    summary: "Delete a caption set and exactly its items (owners)",
    params: { setId: itemIdSchema },
    responses: [ok("`{id, deletedItems}`.")],
    errors: [409],
  },
  async ({ access, params }) => Response.json(await deleteItemSet(prisma, access, itemIdSchema.parse(params.setId))),
);
