import type { ScopedRecord } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { curationItem } from "@/lib/tasks/construction/curation-queues";
import { candidateItemIdSchema } from "@/lib/tasks/construction/curation-queues.validation";
import { curationQueueScope } from "@/lib/tasks/construction/project-scopes";

/** What the curation screen shows for one candidate: steps with their frames, question, options, filters, the caller's decision. */
export const GET = withProjectOf<{ queueId: string; itemId: string }, ScopedRecord>(curationQueueScope, "project.view", async ({ actor, record, params }) =>
  Response.json(await curationItem(prisma, actor, record.id, candidateItemIdSchema.parse(params.itemId))),
);
