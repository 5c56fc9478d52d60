import { runLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { ValidationError } from "@/lib/errors";
import { vbench2ResultsQuerySchema } from "@/lib/tasks/vbench2/results-query";
import { visibleEvalResults, visibleVbench2Results } from "@/lib/tasks/vbench2/visible-results";
import { download, withheldAnswer } from "@/lib/api/openapi/route-builders";

/** `?format=json|eval_results&model=&labelSetId=`: a VBench-2.0 run's dimensions, categories and total, or VBench's own results file for one generator. */
export const GET = withProjectOf(
  runLookup(),
  "project.view",
  {
    summary: "A VBench-2.0 run's results: dimensions, categories and total",
    description:
      "`{dimensions: [{dimension, category, source, score, n, excluded, humanScore, vbenchScore, judgeVsVbench, judgeVsHumans, videos: [{videoId, videoPath, value, excludedReason, humanValue, vbenchValue, questions: [{question, answer, yes, frames, human}]}]}], categories, total, humans}`. `n` counts the videos that are not -1, `excluded` those that are. `labelSetId`: a VBench results label set, for VBench's own values and the six dimensions FrameJury does not judge. `format=eval_results&model=<generator>`: VBench's own `{<Dimension>: [score, [{video_path, video_results}]]}` for that generator's videos, which its scripts/cal_final_score.py reads unchanged (a video excluded or without a value is `-1`). The results are computed from every video of the run, so while the caller reviews any of the run's videos in a blind queue they are withheld whole: `409` with `error.code` `withheld` and `error.details.withheld: {queues: [{id, name, itemsLeft}], blindVideos}`; a generator's eval_results file is withheld the same way while any of that generator's videos is blind to the caller.",
    query: vbench2ResultsQuerySchema,
    responses: [
      download("The results, or VBench's results file.", ["application/json"]),
      withheldAnswer("The results, or the eval_results file"),
    ],
  },
  async ({ actor, record, query }) => {
    if (query.format === "eval_results" && !query.model)
      throw new ValidationError("eval_results is one generator's file: name it with ?model=.");
    const options = { labelSetId: query.labelSetId ?? null, model: query.model ?? null };
    if (query.format === "json")
      return Response.json(await visibleVbench2Results(prisma, actor, record.projectId, record.id, options));
    const file = await visibleEvalResults(prisma, actor, record.projectId, record.id, {
      ...options,
      model: query.model!,
    });
    return new Response(JSON.stringify(file, null, 2), {
      headers: {
        "content-type": "application/json",
        "content-disposition": `attachment; filename="${query.model!.replace(/[^A-Za-z0-9._-]/g, "_")}_eval_results.json"`,
      },
    });
  },
);
