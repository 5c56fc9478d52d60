import { z } from "zod";
import { videoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { videoScores } from "@/lib/judge/runs/runs";
import { ok } from "@/lib/api/openapi/route-builders";

/** `?runId=`: the run whose scores to show (the latest when absent). */
const runIdSchema = z.string().max(64);

export const GET = withProjectOf(
  videoLookup(),
  "project.view",
  {
    summary: "The judge's scores of a video",
    description: "From `runId`, or the latest run.",
    // Read by the handler: `runId` alone, parsed as it comes (an error names no field).
    query: { readBy: "handler", schema: z.object({ runId: runIdSchema.optional() }) },
    responses: [ok("The scores.")],
  },
  async ({ prisma, access, record, request }) => {
    const runId = new URL(request.url).searchParams.get("runId") ?? undefined;
    return Response.json(await videoScores(prisma, access, record.id, runId ? runIdSchema.parse(runId) : undefined));
  },
);
