import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { previewQueue } from "@/lib/queues/preview-queue";
import { searchParamsObject, videoFilterSchema } from "@/lib/videos/video-filter";

/**
 * `?<video-list filter>` (runId included) `&categories=s1,d1` → `{runId, count, targets}`: how many videos a queue
 * would hold, and the targets per video of a queue of the judge's scores of those categories (none: all) (owners).
 */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const params = new URL(request.url).searchParams;
  const categories = (params.get("categories") ?? "").split(",").filter(Boolean);
  params.delete("categories");
  const filter = videoFilterSchema().parse(searchParamsObject(params));
  return Response.json(await previewQueue(prisma, actor, project.id, { filter, categories }));
});
