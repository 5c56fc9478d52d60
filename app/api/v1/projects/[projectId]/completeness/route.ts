import { withProject } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { completenessQuerySchema, projectCompleteness } from "@/lib/videos/prompt-list-store";
import { ok } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The VBench-2.0 completeness report, its lists a page at a time",
    description:
      '`?page=1&pageSize=100` (at most 1000), `model=` (one generator) or `noModel=true` (the videos with none; both → 400). Every generator (a video\'s `model`) is expected to hold every sample. Counts are whole: `dimensions` (per dimension: prompts, samplesPerPrompt, expected over all generators, present, how many are missing, unexpected and unmatched, and `byGenerator` `[{model, expected, present, missing, unexpected}]`), `generators` (the same summed over dimensions; `model: null` is "no generator") and `totals` (with `generators`). The lists come a page at a time, the same page of each: `missing` and `unexpected` (items with their `model`) and `unmatched` are each `{page, pageSize, total, items}`.',
    query: completenessQuerySchema,
    responses: [ok("The report.")],
  },
  async ({ access, query }) => Response.json(await projectCompleteness(appDeps(), access, query)),
);
