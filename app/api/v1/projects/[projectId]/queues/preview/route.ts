import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { previewQueue } from "@/lib/queues/preview-queue";
import { queuePreviewQuerySchema } from "@/lib/queues/queues.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";

/**
 * `?<video-list filter>` (runId included) `&categories=s1,d1` → `{runId, count, targets}`: how many videos a queue
 * would hold, and the targets per video of a queue of the judge's scores of those categories (none: all) (owners).
 */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const { categories, ...filter } = queuePreviewQuerySchema().parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await previewQueue(prisma, actor, project.id, { filter, categories: (categories ?? "").split(",").filter(Boolean) }));
});
