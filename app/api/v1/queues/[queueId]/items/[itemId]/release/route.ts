import { queueScope, type ScopedRecord } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { queueIdSchema } from "@/lib/queues/queues.validation";
import { releaseClaim } from "@/lib/queues/release-claim";

/** Lets go of the caller's unsubmitted claim on this item → `{released}` (a submitted item is kept). */
export const POST = withProjectOf<{ queueId: string; itemId: string }, ScopedRecord>(queueScope, "project.view", async ({ actor, record, params }) =>
  Response.json(await releaseClaim(prisma, actor, record.id, queueIdSchema.parse(params.itemId))),
);
