import { withActor } from "@/lib/api/handler";
import { adjudicationQuerySchema, adjudicationQueue } from "@/lib/adjudication/adjudication";
import { prisma } from "@/lib/db/prisma";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** GET /api/v1/projects/:id/adjudication?task=&target=&runId=&state=all|open|settled&limit= — the targets reviewers disagree on (owners). */
export const GET = withActor<{ projectId: string }>(async (request, actor, params) => {
  const projectId = projectIdSchema.parse(params.projectId);
  const query = adjudicationQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await adjudicationQueue(prisma, actor, projectId, query), { headers: { "cache-control": "no-store" } });
});
