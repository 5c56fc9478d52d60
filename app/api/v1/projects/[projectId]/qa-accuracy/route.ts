import { attachmentResponse } from "@/lib/api/attachment";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { projectQaOverview, qaAccuracyCsv, qaAccuracyJsonl, qaAccuracyQuerySchema } from "@/lib/tasks/qa/qa-results";
import { projectIdSchema } from "@/lib/projects/projects.validation";

/** `?runId=&runId=…&format=json|csv|jsonl`: accuracy per run × format × category × granularity with Wilson 95% intervals and n, the heat map, frames and McNemar comparisons. */
export const GET = withActor<{ projectId: string }>(async (request, actor, params) => {
  const projectId = projectIdSchema.parse(params.projectId);
  const search = new URL(request.url).searchParams;
  const query = qaAccuracyQuerySchema.parse({
    ...Object.fromEntries([...search.entries()].filter(([key, value]) => key !== "runId" && value !== "")),
    runId: search.getAll("runId").filter(Boolean),
  });
  const overview = await projectQaOverview(prisma, actor, projectId, query);
  if (query.format === "json") return Response.json(overview);
  return attachmentResponse(query.format === "csv" ? qaAccuracyCsv(overview) : qaAccuracyJsonl(overview), query.format, `qa-accuracy-${projectId}`);
});
