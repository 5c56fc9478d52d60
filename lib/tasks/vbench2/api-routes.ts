import { download, projectParams, runParams } from "../../api/openapi/route-builders";
import type { ApiRoute } from "../../api/openapi/route-spec";
import { vbench2LeaderboardQuerySchema, vbench2ResultsQuerySchema } from "./results-query";

/** The task's /api/v1 routes for the OpenAPI document. */
export function vbench2ApiRoutes(): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/api/v1/runs/{runId}/vbench2",
      summary: "A VBench-2.0 run's results: dimensions, categories and total",
      description:
        "`{dimensions: [{dimension, category, source, score, n, excluded, humanScore, vbenchScore, judgeVsVbench, judgeVsHumans, videos: [{videoId, videoPath, value, excludedReason, humanValue, vbenchValue, questions: [{question, answer, yes, frames, human}]}]}], categories, total, humans}`. `n` counts the videos that are not -1, `excluded` those that are. `labelSetId`: a VBench results label set, for VBench's own values and the six dimensions FrameJury does not judge. `format=eval_results&model=<generator>`: VBench's own `{<Dimension>: [score, [{video_path, video_results}]]}` for that generator's videos, which its scripts/cal_final_score.py reads unchanged.",
      params: runParams,
      query: vbench2ResultsQuerySchema,
      responses: [download("The results, or VBench's results file.", ["application/json"])],
    },
    {
      method: "get",
      path: "/api/v1/projects/{projectId}/vbench2-leaderboard",
      summary: "A VBench-2.0 run's generators ranked by its total, with 95% intervals",
      description:
        "`{generators: [{model, rank, dimensions: {<Dimension>: {score, lower, upper, n, source: judge|vbench}}, categories, total: {value, lower, upper}}], pairs: [{a, b, n, difference, lower, upper, p}], rankings: {judge, vbench, humans}, kendallTau: [{a, b, tau}], result, leftOut}`. Generators are the videos' `model`; intervals are percentile bootstrap intervals over prompts (`samples`, `seed`); pairs are paired over the prompts both generators have. `csv` and `latex` (`intervals=1` for intervals) export the table like VBench-2.0's paper.",
      params: projectParams,
      query: vbench2LeaderboardQuerySchema,
      responses: [download("The leaderboard.", ["application/json", "text/csv", "application/x-latex"])],
    },
  ];
}
