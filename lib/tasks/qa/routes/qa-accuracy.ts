import { withProject } from "@/lib/api/with-project";
import { attachmentResponse } from "@/lib/api/attachment";

import { prisma } from "@/lib/db/prisma";
import { qaAccuracyQuerySchema } from "@/lib/tasks/qa/qa-query";
import { qaAccuracyCsv, qaAccuracyJsonl } from "@/lib/tasks/qa/qa-results-export";
import { projectQaOverview } from "@/lib/tasks/qa/visible-qa-results";
import { download, withheldAnswer } from "@/lib/api/openapi/route-builders";

/**
 * `?runId=&runId=…&format=json|csv|jsonl`: accuracy per run × format × category × granularity with Wilson 95% intervals
 * and n, the heat map, frames and McNemar comparisons.
 */
export const GET = withProject(
  "project.view",
  {
    summary: "QA accuracy per run × format × category × granularity, with Wilson 95% intervals",
    // Read by the handler: `runId` comes once per run.
    query: { readBy: "handler", schema: qaAccuracyQuerySchema },
    responses: [
      download("The overview.", ["application/json", "text/csv", "application/x-ndjson"]),
      withheldAnswer("The overview (every format)"),
    ],
  },
  async ({ request, access, project }) => {
    const projectId = project.id;
    const search = new URL(request.url).searchParams;
    const query = qaAccuracyQuerySchema.parse({
      ...Object.fromEntries([...search.entries()].filter(([key, value]) => key !== "runId" && value !== "")),
      runId: search.getAll("runId").filter(Boolean),
    });
    const overview = await projectQaOverview(prisma, access, query);
    if (query.format === "json") return Response.json(overview);
    return attachmentResponse(
      query.format === "csv" ? qaAccuracyCsv(overview) : qaAccuracyJsonl(overview),
      query.format,
      `qa-accuracy-${projectId}`,
    );
  },
);
