import { attachmentResponse } from "@/lib/api/attachment";
import { download, withheldAnswer } from "@/lib/api/openapi/route-builders";
import { pairSetLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { pairwiseLeaderboard } from "@/lib/pairwise/reports/leaderboard";
import { pairwiseLeaderboardFiles } from "@/lib/pairwise/reports/leaderboard-files";
import { pairwiseLeaderboardAnswerSchema } from "@/lib/pairwise/reports/reports.answers";
import { pairwiseLeaderboardQuerySchema } from "@/lib/pairwise/reports/reports.types";

/**
 * `?aspect=<id>|overall&raters=people|gold|all|judge:<runId>&format=json|csv|latex&draws=&seed=&minVotes=`:
 * the set's generators ranked by Bradley–Terry on one aspect, the chosen raters' board beside each judge run's.
 */
export const GET = withProjectOf(
  pairSetLookup,
  "project.view",
  {
    summary: "A pair set's pairwise leaderboard: Bradley–Terry ratings with intervals, people and judges side by side",
    query: pairwiseLeaderboardQuerySchema,
    responses: [
      {
        ...download(
          "The boards (`status` ranked with its `ranking`, or withheld with its `reason`), Kendall's τ between the first and each other, honeypot and capped vote counts; or the first board's ranking as CSV or LaTeX.",
          ["application/json", "text/csv", "application/x-latex"],
        ),
        schema: pairwiseLeaderboardAnswerSchema,
      },
      withheldAnswer("The leaderboard (every format)"),
    ],
  },
  async ({ prisma, access, record, query }) => {
    const board = await pairwiseLeaderboard(prisma, access, record.id, query);
    if (query.format === "json") return Response.json(board, { headers: { "cache-control": "no-store" } });
    const file = pairwiseLeaderboardFiles(board, { format: query.format });
    return attachmentResponse(file.body, query.format, file.baseName);
  },
);
