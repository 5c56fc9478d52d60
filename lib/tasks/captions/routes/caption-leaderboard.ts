import { withProject } from "@/lib/api/with-project";
import { attachmentResponse } from "@/lib/api/attachment";

import { prisma } from "@/lib/db/prisma";
import { jsonLines } from "@/lib/export/text-stream";
import { captionLeaderboardQuerySchema } from "@/lib/tasks/captions/caption-query";
import { leaderboardCsv } from "@/lib/tasks/captions/caption-results-export";
import { projectCaptionLeaderboard } from "@/lib/tasks/captions/visible-caption-results";
import { download, withheldAnswer } from "@/lib/api/openapi/route-builders";

/** `?runId=<style run>&runId=<content run>&format=json|csv|jsonl`: per model × caption type, with bootstrap 95% intervals and n. */
export const GET = withProject(
  "project.view",
  {
    summary: "Caption scores per model × caption type, with bootstrap 95% intervals",
    description: "`runId` twice: the style run and the content run.",
    // Read by the handler: `runId` comes twice (the style run and the content run).
    query: { readBy: "handler", schema: captionLeaderboardQuerySchema },
    responses: [
      download("The leaderboard.", ["application/json", "text/csv", "application/x-ndjson"]),
      withheldAnswer("The leaderboard (every format)"),
    ],
  },
  async ({ request, access, project }) => {
    const projectId = project.id;
    const search = new URL(request.url).searchParams;
    const query = captionLeaderboardQuerySchema.parse({
      ...Object.fromEntries([...search.entries()].filter(([key, value]) => key !== "runId" && value !== "")),
      runId: search.getAll("runId").filter(Boolean),
    });
    const result = await projectCaptionLeaderboard(prisma, access, query);
    if (query.format === "json") return Response.json(result);
    const body = query.format === "csv" ? leaderboardCsv(result.rows) : jsonLines(result.rows);
    return attachmentResponse(body, query.format, `caption-leaderboard-${projectId}`);
  },
);
