import { attachmentResponse } from "@/lib/api/attachment";
import { runScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { captionResultsCsv, captionResultsQuerySchema, jsonl } from "@/lib/tasks/captions/caption-results";
import { runCaptionResults } from "@/lib/tasks/captions/visible-caption-results";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** `?model=&type=&page=&pageSize=&format=json|csv|jsonl`: a caption run's results per caption (csv/jsonl: all, as an attachment). */
export const GET = withProjectOf(runScope(), "project.view", async ({ actor, record, request }) => {
  const runId = record.id;
  const query = captionResultsQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const result = await runCaptionResults(prisma, actor, runId, query);
  if (query.format === "json") return Response.json(result);
  const body = query.format === "csv" ? captionResultsCsv(runId, result.captions) : jsonl(result.captions.map((caption) => ({ runId, ...caption })));
  return attachmentResponse(body, query.format, `captions-${runId}`);
});
