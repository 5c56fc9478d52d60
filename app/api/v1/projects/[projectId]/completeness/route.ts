import { withProject } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { completenessQuerySchema, projectCompleteness } from "@/lib/videos/prompt-list-store";
import { ok } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The VBench-2.0 completeness report, its lists a page at a time",
    description:
      "`?page=1&pageSize=100` (at most 1000). Counts are whole: `dimensions` (per dimension: prompts, samplesPerPrompt, expected, present, and how many are missing, unexpected and unmatched) and `totals`. The lists come a page at a time, the same page of each: `missing`, `unexpected` and `unmatched` are each `{page, pageSize, total, items}`.",
    query: completenessQuerySchema,
    responses: [ok("The report.")],
  },
  async ({ actor, project, query }) => Response.json(await projectCompleteness(appDeps(), actor, project.id, query)),
);
