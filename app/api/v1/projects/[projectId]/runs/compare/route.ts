import { withProject } from "@/lib/api/with-project";
import { compareRuns, runComparisonQuerySchema } from "@/lib/run-comparison/run-comparison";
import { ok, withheldAnswer } from "@/lib/api/openapi/route-builders";

/** `?runs=a,b[,…]`: runs of one task side by side. */
export const GET = withProject(
  "export.read",
  {
    summary: "Runs of one task side by side",
    description:
      "Two to eight runs of the same task (say the same videos in `images` and `video-frames` input modes, or with 8, 16, 32 and 64 frames): what differs between them (input mode, frames per video, model, endpoint, prompt versions, settings), each run's agreement with the reviewers (binarised κ; quadratic-weighted κ and Krippendorff's α per target type; span F1 at IoU 0.5 and frame κ, α where the task has spans), Kendall's τ-b between every two runs' generator rankings (by the first run's headline metric), and each run's calls, cost, tokens, bytes sent, mean latency and start-to-finish time. Runs of different tasks are a 400.",
    query: runComparisonQuerySchema,
    responses: [
      ok(
        "`{task, runs: [{id, name, inputMode, frameCounts, model, endpointName, videos, agreement, spans, ranking, rankingNote, cost}], differences: [{field, label, values}], rankingMetric, tau: [{a, b, generators, tau}]}`.",
      ),
      withheldAnswer("The comparison"),
    ],
    errors: [404],
  },
  async ({ prisma, access, query }) =>
    Response.json(await compareRuns(prisma, access, query), { headers: { "cache-control": "no-store" } }),
);
