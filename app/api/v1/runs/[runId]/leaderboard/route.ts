import { attachmentResponse } from "@/lib/api/attachment";
import { runScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { leaderboardCsv, leaderboardLatex } from "@/lib/leaderboard/leaderboard-formats";
import { runLeaderboard } from "@/lib/leaderboard/run-leaderboard";
import { runLeaderboardQuerySchema } from "@/lib/leaderboard/run-leaderboard.validation";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** `?metric=<id>&format=json|csv|latex&samples=&seed=&intervals=`: the run's models ranked by one metric, with bootstrap 95% intervals and paired differences. */
export const GET = withProjectOf(runScope(), "project.view", async ({ actor, record, request }) => {
  const query = runLeaderboardQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const result = await runLeaderboard(prisma, actor, record.id, query);
  if (query.format === "json") return Response.json(result, { headers: { "cache-control": "no-store" } });
  const baseName = `leaderboard-${result.run.id}-${result.metric.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  if (query.format === "csv") return attachmentResponse(leaderboardCsv(result.leaderboard), "csv", baseName);
  return attachmentResponse(
    leaderboardLatex(result.leaderboard, { intervals: query.intervals, percent: result.metric.percent, labels: { [result.metric.id]: result.metric.label } }),
    "latex",
    baseName,
  );
});
