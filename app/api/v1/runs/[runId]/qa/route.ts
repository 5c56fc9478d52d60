import { attachmentResponse } from "@/lib/api/attachment";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { jsonl, qaResultsCsv, qaRunResultsQuerySchema } from "@/lib/tasks/qa/qa-results";
import { runQaResults } from "@/lib/tasks/qa/visible-qa-results";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { recordIdSchema } from "@/lib/validation/ids";

/** `?outcome=&questionFormat=&category=&granularity=&videoId=&flag=right_without_video&page=&pageSize=&format=json|csv|jsonl`: a QA run's results per question. */
export const GET = withActor<{ runId: string }>(async (request, actor, params) => {
  const runId = recordIdSchema.parse(params.runId);
  const query = qaRunResultsQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const result = await runQaResults(prisma, actor, runId, query);
  if (query.format === "json") return Response.json(result);
  const body = query.format === "csv" ? qaResultsCsv(result.run, result.questions) : jsonl(result.questions.map((q) => ({ runId, model: result.run.model, frames: result.run.settings.frames, ...q })));
  return attachmentResponse(body, query.format, `qa-${runId}`);
});
