import { z } from "zod";
import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { runHfDatasetExport } from "@/lib/export/hf-dataset";
import { searchParamsObject } from "@/lib/videos/video-filter";

const querySchema = z.object({ runId: z.string().min(1).max(100) });

/** GET /api/v1/projects/:id/export/hf-dataset?runId=…: the run as a Hugging Face dataset (.tar), streamed. */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const { runId } = querySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const { stream, filename } = await runHfDatasetExport(prisma, actor, project.id, runId);
  return new Response(stream, {
    headers: {
      "content-type": "application/x-tar",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
