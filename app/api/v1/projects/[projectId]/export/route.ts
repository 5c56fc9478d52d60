import { withProject } from "@/lib/api/with-project";
import { projectExport } from "@/lib/agreement/export";
import { exportQuerySchema } from "@/lib/agreement/scope";
import { prisma } from "@/lib/db/prisma";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** GET /api/v1/projects/:id/export?<video filters>&format=csv|jsonl: every judged item, streamed. */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const projectId = project.id;
  const query = exportQuerySchema().parse(searchParamsObject(new URL(request.url).searchParams));
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
