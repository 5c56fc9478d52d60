import { attachmentResponse } from "@/lib/api/attachment";
import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { leaderboardCsv, leaderboardLatex } from "@/lib/leaderboard/leaderboard-formats";
import { vbench2Leaderboard } from "@/lib/tasks/vbench2/leaderboard";
import { vbench2LeaderboardQuerySchema } from "@/lib/tasks/vbench2/results-query";
import { searchParamsObject } from "@/lib/videos/video-filter";

type Params = { projectId: string };

/** `?runId=&labelSetId=&format=json|csv|latex&samples=&seed=&intervals=`: the project's generators ranked by VBench-2.0's total, with intervals. */
export const GET = withProject<Params>("project.view", async ({ actor, project, request }) => {
  const query = vbench2LeaderboardQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  const board = await vbench2Leaderboard(prisma, actor, project.id, { runId: query.runId, labelSetId: query.labelSetId ?? null, samples: query.samples, seed: query.seed });
  if (query.format === "json") return Response.json(board);
  const labels = Object.fromEntries(board.result.dimensions.map((d) => [d, d.replace(/_/g, " ")]));
  const body = query.format === "csv" ? leaderboardCsv(board.result) : leaderboardLatex(board.result, { intervals: query.intervals, labels });
  return attachmentResponse(body, query.format === "csv" ? "csv" : "latex", `vbench2-leaderboard-${query.runId}`);
});
