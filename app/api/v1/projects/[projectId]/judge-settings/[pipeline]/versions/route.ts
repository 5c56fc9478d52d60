import { withProject } from "@/lib/api/with-project";
import { pipelineParamSchema } from "@/lib/judge/endpoints.validation";
import { listSettingsVersions } from "@/lib/judge/settings-versions";
import { ok } from "@/lib/api/openapi/route-builders";

/** Every saved version of the project's defaults for a pipeline's new runs, newest first. */
export const GET = withProject(
  "project.view",
  {
    summary: "Every saved version of the project's defaults for a pipeline, newest first",
    params: { pipeline: pipelineParamSchema },
    responses: [
      ok(
        "`{versions: [{id, pipeline, number, settings, thresholds, alignmentRunId, note, createdById, createdAt}]}`: thresholds are tuned positive thresholds by target id.",
      ),
    ],
  },
  async ({ prisma, actor, params, project }) =>
    Response.json({
      versions: await listSettingsVersions(prisma, actor, project.id, pipelineParamSchema.parse(params.pipeline)),
    }),
);
