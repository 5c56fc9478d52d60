import { withProject } from "@/lib/api/with-project";
import { createQueue } from "@/lib/queues/create-queue";
import { listQueues } from "@/lib/queues/list-queues";
import { archivedFlagSchema, createQueueSchema } from "@/lib/queues/queues.validation";
import { z } from "zod";
import { ok, created } from "@/lib/api/openapi/route-builders";
import { createdQueueResponseSchema } from "@/lib/api/openapi/responses";
import { queueListAnswerSchema } from "@/lib/queues/list-queues.types";

/** `?archived=1`: the archived queues instead of the open ones. */
export const GET = withProject(
  "project.view",
  {
    summary: "The project's queues with progress",
    // Read by the handler: `archived` alone, parsed as it comes (an empty one is not left out; an error names no field).
    query: { readBy: "handler", schema: z.object({ archived: archivedFlagSchema }) },
    responses: [ok("`{queues: [...]}`.", queueListAnswerSchema)],
  },
  async ({ prisma, request, access }) => {
    const archived = archivedFlagSchema.parse(new URL(request.url).searchParams.get("archived") ?? undefined);
    return Response.json({
      queues: await listQueues(prisma, access, { archived: archived === "1" || archived === "true" }),
    });
  },
);

/**
 * `{"name","runId"?,"filter","sort"?,"dir"?,"scope":"verdict"|"scores","categories"?,"reviewersPerItem"?,"blind"?,"localize"?}`
 * (owners); `localize`: reviewers also mark where (spans).
 */
export const POST = withProject(
  "queues.manage",
  {
    summary: "Create a review queue (owners)",
    body: { kind: "json", schema: createQueueSchema },
    responses: [created("The queue.", createdQueueResponseSchema)],
  },
  async ({ prisma, access, body: input, catalogue }) => {
    const queue = await createQueue(prisma, access, input, catalogue);
    return Response.json(
      { id: queue.id, name: queue.name, runId: queue.runId, itemCount: queue.itemCount },
      { status: 201 },
    );
  },
);
