import { z } from "zod";
import { parseJsonBody } from "@/lib/api/handler";
import { queueLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { getQueue } from "@/lib/queues/get-queue";
import { queueAnswerSchema } from "@/lib/queues/get-queue.types";
import { updateQueueState } from "@/lib/queues/queue-states";
import { queueStateSchema } from "@/lib/queues/queue-states.validation";
import { queueGuidelinesSchema, queueIdSchema } from "@/lib/queues/queues.validation";
import { setQueueGuidelines } from "@/lib/queues/set-queue-guidelines";
import { ok } from "@/lib/api/openapi/route-builders";

/** A change of the queue's guidelines: `guidelines` and nothing else. */
const guidelinesChangeSchema = queueGuidelinesSchema.strict();

/** The queue, its progress (items, complete, per reviewer), whether it is finished, its assignees and the caller's own counts. */
export const GET = withProjectOf(
  queueLookup,
  "project.view",
  {
    summary: "A queue with its progress and the caller's own counts",
    params: { queueId: queueIdSchema },
    responses: [ok("The queue.", queueAnswerSchema)],
  },
  async ({ prisma, access, record }) => Response.json(await getQueue(prisma, access, record.id)),
);

/**
 * `{"archived"?: boolean, "assignees"?: [emails], "handOut"?: "overlap" | "coverage"}` (owners): archive / restore,
 * assign to named reviewers (`[]`: everyone), set the hand-out order; or `{"guidelines"}`: owners change the queue's
 * guidelines (Markdown) → the queue.
 */
export const PATCH = withProjectOf(
  queueLookup,
  "queues.manage",
  {
    summary: "Archive / restore, assign, set the hand-out order, or change the guidelines of a queue (owners)",
    params: { queueId: queueIdSchema },
    // Read here in two steps, so each kind of change answers with its own schema's errors.
    body: { kind: "json", schema: z.union([guidelinesChangeSchema, queueStateSchema]), readBy: "handler" },
    responses: [ok("The queue.")],
  },
  async ({ prisma, access, record, request }) => {
    const queueId = record.id;
    const body = await parseJsonBody(request, z.record(z.string(), z.unknown()));
    // Two kinds of change, each with its own schema (and its own clear error): guidelines, or the queue's state.
    if ("guidelines" in body)
      return Response.json(await setQueueGuidelines(prisma, access, queueId, guidelinesChangeSchema.parse(body)));
    return Response.json(await updateQueueState(prisma, access, queueId, queueStateSchema.parse(body)));
  },
);
