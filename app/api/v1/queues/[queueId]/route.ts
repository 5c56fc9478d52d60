import { z } from "zod";
import { parseJsonBody } from "@/lib/api/handler";
import { queueScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { getQueue } from "@/lib/queues/get-queue";
import { updateQueueState } from "@/lib/queues/queue-states";
import { queueStateSchema } from "@/lib/queues/queue-states.validation";
import { queueGuidelinesSchema } from "@/lib/queues/queues.validation";
import { setQueueGuidelines } from "@/lib/queues/set-queue-guidelines";

/** The queue, its progress (items, complete, per reviewer), whether it is finished, its assignees and the caller's own counts. */
export const GET = withProjectOf(queueScope, "project.view", async ({ actor, record }) => Response.json(await getQueue(prisma, actor, record.id)));

/**
 * `{"archived"?: boolean, "assignees"?: [emails]}` (owners): archive / restore, assign to named reviewers
 * (`[]`: everyone); or `{"guidelines"}`: owners change the queue's guidelines (Markdown) → the queue.
 */
export const PATCH = withProjectOf(queueScope, "project.view", async ({ actor, record, request }) => {
  const queueId = record.id;
  const body = await parseJsonBody(request, z.record(z.string(), z.unknown()));
  // Two kinds of change, each with its own schema (and its own clear error): guidelines, or the queue's state.
  if ("guidelines" in body) return Response.json(await setQueueGuidelines(prisma, actor, queueId, queueGuidelinesSchema.strict().parse(body)));
  return Response.json(await updateQueueState(prisma, actor, queueId, queueStateSchema.parse(body)));
});
