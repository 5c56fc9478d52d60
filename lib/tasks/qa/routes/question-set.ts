import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { deleteItemSet } from "@/lib/items/item-sets";
import { itemIdSchema } from "@/lib/items/items.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** Deletes the question set and exactly its questions (owners); a set a QA run judged → 409. */
export const DELETE = withProject(
  "videos.import",
  {
    summary: "Delete a question set and exactly its questions (owners)",
    params: { setId: itemIdSchema },
    responses: [ok("`{id, deletedItems}`.")],
    errors: [409],
  },
  async ({ access, params }) => Response.json(await deleteItemSet(prisma, access, itemIdSchema.parse(params.setId))),
);
