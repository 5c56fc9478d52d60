import { withProject } from "@/lib/api/with-project";
import { adjudicationQuerySchema, adjudicationQueue } from "@/lib/adjudication/adjudication";
import { ok } from "@/lib/api/openapi/route-builders";

/** GET /api/v1/projects/:id/adjudication?task=&target=&runId=&state=all|open|settled&limit= — the targets reviewers disagree on (owners). */
export const GET = withProject(
  "gold.set",
  {
    summary: "The targets live reviewers disagree on (owners)",
    query: adjudicationQuerySchema,
    responses: [ok("`{total, settled, items}`.")],
  },
  async ({ prisma, actor, project, query }) => {
    const projectId = project.id;
    return Response.json(await adjudicationQueue(prisma, actor, projectId, query), {
      headers: { "cache-control": "no-store" },
    });
  },
);
