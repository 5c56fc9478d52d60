import { itemLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { getItem } from "@/lib/items/items";
import { itemIdSchema } from "@/lib/items/items.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** One caption with its reference (instruction, reference caption, restriction, key points). */
export const GET = withProjectOf(
  itemLookup("captionId", "No such caption."),
  "project.view",
  {
    summary: "One caption with its reference",
    params: { captionId: itemIdSchema },
    responses: [ok("The caption.")],
  },
  async ({ access, record, catalogue }) => Response.json(await getItem(prisma, access, record.id, catalogue)),
);
