import { attachmentResponse } from "@/lib/api/attachment";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { captionResultsCsv, captionResultsQuerySchema, jsonl } from "@/lib/tasks/captions/caption-results";
import { runCaptionResults } from "@/lib/tasks/captions/visible-caption-results";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { recordIdSchema } from "@/lib/validation/ids";

/** `?model=&type=&page=&pageSize=&format=json|csv|jsonl`: a caption run's results per caption (csv/jsonl: all, as an attachment). */
export const GET = withActor<{ runId: string }>(async (request, actor, params) => {
  const runId = recordIdSchema.parse(params.runId);
  const query = captionResultsQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const result = await runCaptionResults(prisma, actor, runId, query);
  if (query.format === "json") return Response.json(result);
  const body = query.format === "csv" ? captionResultsCsv(runId, result.captions) : jsonl(result.captions.map((caption) => ({ runId, ...caption })));
  return attachmentResponse(body, query.format, `captions-${runId}`);
});
