import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { getItem } from "@/lib/items/items";
import { itemIdSchema } from "@/lib/items/items.validation";

type Params = { captionId: string };

/** One caption with its reference (instruction, reference caption, restriction, key points). */
export const GET = withActor<Params>(async (_request, actor, params) => Response.json(await getItem(prisma, actor, itemIdSchema.parse(params.captionId))));
