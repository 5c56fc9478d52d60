import { z } from "zod";
import { videoLookup, wholeVideoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { created, ok } from "@/lib/api/openapi/route-builders";
import { appDeps } from "@/lib/videos/app-deps";
import { createSpan, listVideoSpans } from "@/lib/spans/span-store";
import { videoSpansBesideRun } from "@/lib/spans/run-span-view";
import { spanInputSchema, spanListAnswerSchema, spanRecordSchema } from "@/lib/spans/span-validation";
import { visibleSpansFor } from "@/lib/spans/span-visibility";
import { assertQueueSpanWrite } from "@/lib/queues/localize";
import { recordIdSchema } from "@/lib/validation/ids";

const spanListQuerySchema = z.object({
  task: z.string().min(1).max(200).optional(),
  /** The judge run the page shows: its judge spans only, and the frame set it judged the video with. */
  runId: recordIdSchema.optional(),
});

/** The video's spans the caller may see (their own only while they review it blind). */
export const GET = withProjectOf(
  videoLookup(),
  "project.view",
  {
    summary: "A video's spans",
    description:
      "Every span that counts; while the caller reviews the video blind, only their own. With `runId`, the judge spans of that run only, and `frameSetId`: the frame set it judged the video with (null: it did not judge it).",
    query: spanListQuerySchema,
    responses: [ok("`{spans, blind}`, with `runId` also `frameSetId`.", spanListAnswerSchema)],
  },
  async ({ actor, role, record, query }) => {
    const { prisma } = appDeps();
    if (query.runId) {
      const view = await videoSpansBesideRun(prisma, record.id, { task: query.task, runId: query.runId });
      const visible = await visibleSpansFor(prisma, { userId: actor.userId, role }, record.id, view.spans);
      return Response.json({ ...visible, frameSetId: view.frameSetId });
    }
    const spans = await listVideoSpans(prisma, record.id, { task: query.task });
    return Response.json(await visibleSpansFor(prisma, { userId: actor.userId, role }, record.id, spans));
  },
);

/** Marks a span (reviewers): frames, or seconds converted with the video's frame times. */
export const POST = withProjectOf(
  wholeVideoLookup(),
  "scores.review",
  {
    summary: "Mark a span of the video (reviewers)",
    description:
      "`{task, label, startFrame, endFrame}` or `{task, label, startS, endS}`, optional `boxes` and `note`; frames are inclusive.",
    // Both sides strict: an intersection refuses a key only when neither side knows it, so a misspelt field (`notes`)
    // is a 400 instead of being dropped.
    body: { kind: "json", schema: spanInputSchema.and(z.object({ queueId: recordIdSchema.optional() }).strict()) },
    responses: [created("The span.", spanRecordSchema)],
    errors: [404, 422],
  },
  async ({ access, record: video, body, catalogue }) => {
    const deps = appDeps();
    const { queueId, ...input } = body;
    // Marked in a queue: only by a reviewer holding the item there, as a submission (lib/queues/localize.ts).
    if (queueId)
      await assertQueueSpanWrite(deps.prisma, access, queueId, {
        projectId: video.projectId,
        videoId: video.id,
        itemId: input.itemId,
        task: input.task,
      });
    const span = await createSpan(deps, access, video, input, { catalogue: catalogue.declarations(), queueId });
    return Response.json(span, { status: 201 });
  },
);
