import { attachmentResponse } from "@/lib/api/attachment";
import { runScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { jsonl, qaResultsCsv, qaRunResultsQuerySchema } from "@/lib/tasks/qa/qa-results";
import { runQaResults } from "@/lib/tasks/qa/visible-qa-results";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** `?outcome=&questionFormat=&category=&granularity=&videoId=&flag=right_without_video&page=&pageSize=&format=json|csv|jsonl`: a QA run's results per question. */
export const GET = withProjectOf(runScope(), "project.view", async ({ actor, record, request }) => {
  const runId = record.id;
  const query = qaRunResultsQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const result = await runQaResults(prisma, actor, runId, query);
  if (query.format === "json") return Response.json(result);
  const body = query.format === "csv" ? qaResultsCsv(result.run, result.questions) : jsonl(result.questions.map((q) => ({ runId, model: result.run.model, frames: result.run.settings.frames, ...q })));
  return attachmentResponse(body, query.format, `qa-${runId}`);
});
