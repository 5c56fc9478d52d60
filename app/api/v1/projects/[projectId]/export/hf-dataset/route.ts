import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { runHfDatasetExport } from "@/lib/export/hf-dataset";
import { hfDatasetQuerySchema, hfSplitSpecOf } from "@/lib/export/hf-splits.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";

/**
 * GET /api/v1/projects/:id/export/hf-dataset?runId=…[&split=seed|metadata|labelSet…]: the run as a Hugging Face
 * dataset (.tar), streamed; one `test` split unless a split is asked for (lib/export/hf-splits.ts).
 */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const query = hfDatasetQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const { stream, filename } = await runHfDatasetExport(prisma, actor, project.id, query.runId, { split: hfSplitSpecOf(query) });
  return new Response(stream, {
    headers: {
      "content-type": "application/x-tar",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
