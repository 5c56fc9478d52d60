import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { listItems } from "@/lib/items/items";
import { itemFilterSchema } from "@/lib/items/item-filter";
import { ok } from "@/lib/api/openapi/route-builders";

/** `?model=&type=&videoId=&setId=&kind=caption|caption_reference&page=&pageSize=`: one page of the project's captions. */
export const GET = withProject(
  "project.view",
  {
    summary: "One page of the project's captions (or references)",
    query: itemFilterSchema,
    responses: [ok("`{total, page, pageSize, items}`.")],
  },
  async ({ access, query: filter, catalogue }) => Response.json(await listItems(prisma, access, filter, catalogue)),
);
