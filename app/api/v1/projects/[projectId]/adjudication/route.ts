import { withProject } from "@/lib/api/with-project";
import { adjudicationQuerySchema, adjudicationQueue } from "@/lib/adjudication/adjudication";
import { prisma } from "@/lib/db/prisma";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** GET /api/v1/projects/:id/adjudication?task=&target=&runId=&state=all|open|settled&limit= — the targets reviewers disagree on (owners). */
export const GET = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const projectId = project.id;
  const query = adjudicationQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await adjudicationQueue(prisma, actor, projectId, query), { headers: { "cache-control": "no-store" } });
});
