import { attachmentResponse } from "@/lib/api/attachment";
import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { accessFor } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { jsonLines, pagedTextStream } from "@/lib/export/text-stream";
import { captionResultsQuerySchema } from "@/lib/tasks/captions/caption-query";
import { CAPTION_RESULTS_CSV_HEADER, captionResultsCsvRows } from "@/lib/tasks/captions/caption-results-export";
import { runCaptionResultExport, runCaptionResults } from "@/lib/tasks/captions/visible-caption-results";
import { download, withheldAnswer } from "@/lib/api/openapi/route-builders";

/**
 * `?model=&type=&page=&pageSize=&format=json|csv|jsonl`: a caption run's results per caption (csv/jsonl: all, as an
 * attachment streamed a page of rows at a time).
 */
export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "A caption run's results per caption",
    description:
      "csv/jsonl: every caption, as an attachment; withheld (409) while the caller reviews any of the run's videos blind.",
    query: captionResultsQuerySchema,
    responses: [
      download("The results.", ["application/json", "text/csv", "application/x-ndjson"]),
      withheldAnswer("The csv/jsonl export"),
    ],
  },
  async ({ access, record, query }) => {
    const runId = record.id;
    if (query.format === "json") return Response.json(await runCaptionResults(prisma, access, runId, query));
    const body = await pagedTextStream(
      await runCaptionResultExport(prisma, accessFor(access, "export.read"), runId, query),
      query.format === "csv" ? CAPTION_RESULTS_CSV_HEADER : "",
      ({ captions }) =>
        query.format === "csv"
          ? captionResultsCsvRows(runId, captions)
          : jsonLines(captions.map((caption) => ({ runId, ...caption }))),
    );
    return attachmentResponse(body, query.format, `captions-${runId}`);
  },
);
