import { attachmentResponse } from "@/lib/api/attachment";
import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { leaderboardCsv, leaderboardLatex } from "@/lib/leaderboard/leaderboard-formats";
import { vbench2Leaderboard } from "@/lib/tasks/vbench2/leaderboard";
import { vbench2LeaderboardQuerySchema } from "@/lib/tasks/vbench2/results-query";
import { download, withheldAnswer } from "@/lib/api/openapi/route-builders";

/** `?runId=&labelSetId=&format=json|csv|latex&samples=&seed=&intervals=`: the project's generators ranked by VBench-2.0's total, with intervals. */
export const GET = withProject(
  "project.view",
  {
    summary: "A VBench-2.0 run's generators ranked by its total, with 95% intervals",
    description:
      "`{generators: [{model, rank, dimensions: {<Dimension>: {score, lower, upper, n, source: judge|vbench}}, categories, total: {value, lower, upper}}], pairs: [{a, b, n, difference, lower, upper, p}], rankings: {judge, vbench, humans}, kendallTau: [{a, b, tau}], result, leftOut}`. Generators are the videos' `model`; intervals are percentile bootstrap intervals over prompts (`samples`, `seed`); pairs are paired over the prompts both generators have. `csv` and `latex` (`intervals=1` for intervals) export the table like VBench-2.0's paper.",
    query: vbench2LeaderboardQuerySchema,
    responses: [
      download("The leaderboard.", ["application/json", "text/csv", "application/x-latex"]),
      withheldAnswer("The leaderboard (every format)"),
    ],
  },
  async ({ actor, project, query }) => {
    const board = await vbench2Leaderboard(prisma, actor, project.id, {
      runId: query.runId,
      labelSetId: query.labelSetId ?? null,
      samples: query.samples,
      seed: query.seed,
    });
    if (query.format === "json") return Response.json(board);
    const labels = Object.fromEntries(board.result.dimensions.map((d) => [d, d.replace(/_/g, " ")]));
    const body =
      query.format === "csv"
        ? leaderboardCsv(board.result)
        : leaderboardLatex(board.result, { intervals: query.intervals, labels });
    return attachmentResponse(body, query.format === "csv" ? "csv" : "latex", `vbench2-leaderboard-${query.runId}`);
  },
);
