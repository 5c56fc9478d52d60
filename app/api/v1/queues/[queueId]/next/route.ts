import { queueScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { nextItem } from "@/lib/queues/next-item";

/** Claims the caller's next item (or returns their open claim) → `{itemId}`; `{itemId: null}` when nothing is left for them. */
export const POST = withProjectOf(queueScope, "project.view", async ({ actor, record }) => Response.json(await nextItem(prisma, actor, record.id)));
