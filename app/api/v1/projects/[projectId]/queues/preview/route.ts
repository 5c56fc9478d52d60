import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { previewQueue } from "@/lib/queues/preview-queue";
import { searchParamsObject, videoFilterSchema } from "@/lib/videos/video-filter";

/** `?<video-list filter>` (runId included) → `{runId, count}`: how many videos a queue would hold (owners). */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const filter = videoFilterSchema().parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await previewQueue(prisma, actor, project.id, { filter }));
});
