import { attachmentResponse } from "@/lib/api/attachment";
import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { accessFor } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { jsonLines, pagedTextStream } from "@/lib/export/text-stream";
import { qaRunResultsQuerySchema } from "@/lib/tasks/qa/qa-query";
import { QA_RESULTS_CSV_HEADER, qaResultJsonLine, qaResultsCsvRows } from "@/lib/tasks/qa/qa-results-export";
import { runQaResultExport, runQaResults } from "@/lib/tasks/qa/visible-qa-results";
import { download, withheldAnswer } from "@/lib/api/openapi/route-builders";

/**
 * `?outcome=&questionFormat=&category=&granularity=&videoId=&flag=right_without_video&page=&pageSize=&format=json|csv|jsonl`:
 * a QA run's results per question (csv/jsonl: all, streamed a page of rows at a time).
 */
export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "A QA run's results per question",
    description:
      "csv/jsonl: every question, as an attachment; withheld (409) while the caller reviews any of the run's videos blind.",
    query: qaRunResultsQuerySchema,
    responses: [
      download("The results.", ["application/json", "text/csv", "application/x-ndjson"]),
      withheldAnswer("The csv/jsonl export"),
    ],
  },
  async ({ access, record, query }) => {
    const runId = record.id;
    if (query.format === "json") return Response.json(await runQaResults(prisma, access, runId, query));
    const body = await pagedTextStream(
      await runQaResultExport(prisma, accessFor(access, "export.read"), runId, query),
      query.format === "csv" ? QA_RESULTS_CSV_HEADER : "",
      ({ run, questions }) =>
        query.format === "csv"
          ? qaResultsCsvRows(run, questions)
          : jsonLines(questions.map((question) => qaResultJsonLine(run, question))),
    );
    return attachmentResponse(body, query.format, `qa-${runId}`);
  },
);
