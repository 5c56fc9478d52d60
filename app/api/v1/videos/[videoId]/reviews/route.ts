import { videoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { videoReviews } from "@/lib/reviews/reviews";
import { recordIdSchema } from "@/lib/validation/ids";
import { z } from "zod";
import { ok } from "@/lib/api/openapi/route-builders";

export const GET = withProjectOf(
  videoLookup(),
  "project.view",
  {
    summary: "The reviewers' judgments of a video",
    // Read by the handler: each id alone, parsed as it comes (an error names no field).
    query: {
      readBy: "handler",
      schema: z.object({ runId: recordIdSchema.optional(), itemId: recordIdSchema.optional() }),
    },
    responses: [ok("The judgments.")],
  },
  async ({ prisma, access, record, request }) => {
    const query = new URL(request.url).searchParams;
    const runId = query.get("runId");
    const itemId = query.get("itemId");
    return Response.json(
      await videoReviews(prisma, access, record.id, {
        runId: runId === null ? undefined : recordIdSchema.parse(runId),
        itemId: itemId === null ? undefined : recordIdSchema.parse(itemId),
      }),
    );
  },
);
