import { withActor } from "@/lib/api/handler";
import { compareSetupsQuerySchema } from "@/lib/calibration/calibration.validation";
import { compareSetupsReport } from "@/lib/calibration/compare-setups-load";
import { prisma } from "@/lib/db/prisma";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** GET /api/v1/projects/:id/calibration/compare?runIds=a,b[,…]&labelSetId=|reference=consensus&annotator=&seed=&iterations= */
export const GET = withActor<{ projectId: string }>(async (request, actor, params) => {
  const projectId = projectIdSchema.parse(params.projectId);
  const query = compareSetupsQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await compareSetupsReport(prisma, actor, projectId, query), { headers: { "cache-control": "no-store" } });
});
