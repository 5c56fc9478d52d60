import { withProject } from "@/lib/api/with-project";
import { compareSetupsQuerySchema } from "@/lib/calibration/calibration.validation";
import { compareSetupsReport } from "@/lib/calibration/compare-setups-load";
import { prisma } from "@/lib/db/prisma";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** GET /api/v1/projects/:id/calibration/compare?runIds=a,b[,…]&target=&labelSetId=|reference=consensus|reference=gold&annotator=&seed=&iterations= */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const projectId = project.id;
  const query = compareSetupsQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await compareSetupsReport(prisma, actor, projectId, query), { headers: { "cache-control": "no-store" } });
});
