import { withActor } from "@/lib/api/handler";
import { projectExport } from "@/lib/agreement/export";
import { exportQuerySchema } from "@/lib/agreement/scope";
import { prisma } from "@/lib/db/prisma";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** GET /api/v1/projects/:id/export?<video filters>&format=csv|jsonl: every judged item, streamed. */
export const GET = withActor<{ projectId: string }>(async (request, actor, params) => {
  const projectId = projectIdSchema.parse(params.projectId);
  const query = exportQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const { stream, contentType, filename } = await projectExport(prisma, actor, projectId, query);
  return new Response(stream, {
    headers: {
      "content-type": contentType,
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
