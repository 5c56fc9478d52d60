import { attachmentResponse } from "@/lib/api/attachment";
import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { leaderboardCsv, leaderboardLatex } from "@/lib/leaderboard/leaderboard-formats";
import { runLeaderboard } from "@/lib/leaderboard/run-leaderboard";
import { runLeaderboardQuerySchema } from "@/lib/leaderboard/run-leaderboard.validation";
import { download, withheldAnswer } from "@/lib/api/openapi/route-builders";

/**
 * `?metric=<id>&format=json|csv|latex&samples=&seed=&intervals=`: the run's models ranked by one metric, with bootstrap
 * 95% intervals and paired differences.
 */
export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "The run's generator models ranked by one metric, with bootstrap 95% intervals and paired differences",
    query: runLeaderboardQuerySchema,
    responses: [
      download(
        "`{run, metric, metrics, videos: {withValue, ranked, withoutModel}, leaderboard: {dimensions, generators: [{model, rank, dimensions, total}], pairs: [{a, b, n, difference, lower, upper, p}], ranking, bootstrap}}`, or the CSV or LaTeX table.",
        ["application/json", "text/csv", "application/x-latex"],
      ),
      withheldAnswer("The leaderboard (every format)"),
    ],
  },
  async ({ prisma, access, record, query }) => {
    const result = await runLeaderboard(prisma, access, record.id, query);
    if (query.format === "json") return Response.json(result, { headers: { "cache-control": "no-store" } });
    const baseName = `leaderboard-${result.run.id}-${result.metric.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
    if (query.format === "csv") return attachmentResponse(leaderboardCsv(result.leaderboard), "csv", baseName);
    return attachmentResponse(
      leaderboardLatex(result.leaderboard, {
        intervals: query.intervals,
        percent: result.metric.percent,
        labels: { [result.metric.id]: result.metric.label },
      }),
      "latex",
      baseName,
    );
  },
);
