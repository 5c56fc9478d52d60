import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { previewQueue } from "@/lib/queues/queues";
import { searchParamsObject, videoFilterSchema } from "@/lib/videos/video-filter";

/** `?<video-list filter>` (runId included) → `{runId, count}`: how many videos a queue would hold (owners). */
export const GET = withActor<{ projectId: string }>(async (request, actor, params) => {
  const filter = videoFilterSchema.parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await previewQueue(prisma, actor, projectIdSchema.parse(params.projectId), { filter }));
});
