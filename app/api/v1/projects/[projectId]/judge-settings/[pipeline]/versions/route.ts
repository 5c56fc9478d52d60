import { withProject } from "@/lib/api/with-project";
import { pipelineParamSchema } from "@/lib/judge/runs/run-input.validation";
import { listSettingsVersions } from "@/lib/judge/runs/settings-versions";
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
  async ({ prisma, access, params }) =>
    Response.json({
      versions: await listSettingsVersions(prisma, access, pipelineParamSchema.parse(params.pipeline)),
    }),
);
