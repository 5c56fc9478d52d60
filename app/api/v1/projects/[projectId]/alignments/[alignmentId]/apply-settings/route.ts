import { withProject } from "@/lib/api/with-project";
import { recordIdSchema } from "@/lib/validation/ids";
import { applyAlignedSettings } from "@/lib/alignment/alignment-runs";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { ok } from "@/lib/api/openapi/route-builders";

/** Owners: the chosen settings of a built-in alignment become the project's defaults for the pipeline's new runs. */
export const POST = withProject(
  "runs.manage",
  {
    summary:
      "Make a built-in alignment's chosen run settings and tuned threshold the project's defaults for new runs (owners), as a new settings version",
    responses: [
      ok("The new version of the pipeline's defaults: `{id, number, settings, thresholds, alignmentRunId, …}`."),
    ],
  },
  async ({ prisma, access, params }) =>
    Response.json(
      await applyAlignedSettings(
        prisma,
        access,
        recordIdSchema.parse(params.alignmentId),
        builtInCatalogue().pipelines,
      ),
    ),
);
