import { runScope } from "@/lib/api/project-scopes";
import { withProjectOf } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { ValidationError } from "@/lib/errors";
import { evalResultsOf } from "@/lib/tasks/vbench2/results";
import { vbench2ResultsQuerySchema } from "@/lib/tasks/vbench2/results-query";
import { visibleVbench2Results } from "@/lib/tasks/vbench2/visible-results";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** `?format=json|eval_results&model=&labelSetId=`: a VBench-2.0 run's dimensions, categories and total, or VBench's own results file for one generator. */
export const GET = withProjectOf(runScope(), "project.view", async ({ actor, record, request }) => {
  const query = vbench2ResultsQuerySchema.parse(searchParamsObject(new URL(request.url).searchParams));
  if (query.format === "eval_results" && !query.model) throw new ValidationError("eval_results is one generator's file: name it with ?model=.");
  const results = await visibleVbench2Results(prisma, actor, record.projectId, record.id, { labelSetId: query.labelSetId ?? null, model: query.model ?? null });
  if (query.format === "json") return Response.json(results);
  return new Response(JSON.stringify(evalResultsOf(results), null, 2), {
    headers: { "content-type": "application/json", "content-disposition": `attachment; filename="${query.model!.replace(/[^A-Za-z0-9._-]/g, "_")}_eval_results.json"` },
  });
});
