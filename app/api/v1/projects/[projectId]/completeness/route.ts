import { withProject } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { projectCompleteness } from "@/lib/videos/prompt-list-store";
import { ok } from "@/lib/api/openapi/route-builders";

export const GET = withProject(
  "project.view",
  {
    summary: "The VBench-2.0 completeness report",
    responses: [ok("The report.")],
  },
  async ({ actor, project }) => Response.json(await projectCompleteness(appDeps(), actor, project.id)),
);
