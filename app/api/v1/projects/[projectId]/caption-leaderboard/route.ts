import { attachmentResponse } from "@/lib/api/attachment";
import { withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { captionLeaderboardQuerySchema, jsonl, leaderboardCsv, projectCaptionLeaderboard } from "@/lib/tasks/captions/caption-results";
import { projectIdSchema } from "@/lib/projects/projects.validation";

/** `?runId=<style run>&runId=<content run>&format=json|csv|jsonl`: per model × caption type, with bootstrap 95% intervals and n. */
export const GET = withActor<{ projectId: string }>(async (request, actor, params) => {
  const projectId = projectIdSchema.parse(params.projectId);
  const search = new URL(request.url).searchParams;
  const query = captionLeaderboardQuerySchema.parse({
    ...Object.fromEntries([...search.entries()].filter(([key, value]) => key !== "runId" && value !== "")),
    runId: search.getAll("runId").filter(Boolean),
  });
  const result = await projectCaptionLeaderboard(prisma, actor, projectId, query);
  if (query.format === "json") return Response.json(result);
  const body = query.format === "csv" ? leaderboardCsv(result.rows) : jsonl(result.rows);
  return attachmentResponse(body, query.format, `caption-leaderboard-${projectId}`);
});
