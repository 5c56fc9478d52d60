import { withProject } from "@/lib/api/with-project";
import { spanAdjudication, spanAdjudicationQuerySchema } from "@/lib/adjudication/span-adjudication";
import { ok } from "@/lib/api/openapi/route-builders";

/** GET /api/v1/projects/:id/adjudication/spans?task=&videoId=&state=all|open|settled&limit= — reviewers' spans to settle (owners). */
export const GET = withProject(
  "gold.set",
  {
    summary: "The videos with reviewers' spans, most disputed first, with the gold spans (owners)",
    description:
      "Per video and label: each reviewer's spans, their disagreement (1 − the lowest frame IoU between two reviewers) and the gold spans with their history.",
    query: spanAdjudicationQuerySchema,
    responses: [ok("`{total, settled, items}`.")],
  },
  async ({ prisma, actor, project, query, catalogue }) =>
    Response.json(await spanAdjudication(prisma, actor, project.id, query, catalogue), {
      headers: { "cache-control": "no-store" },
    }),
);
