import { withProject } from "@/lib/api/with-project";
import { z } from "zod";
import { parseJsonBody } from "@/lib/api/handler";
import { pipelineParamSchema } from "@/lib/judge/runs/run-input.validation";
import type { TaskCatalogue } from "@/lib/task-modules/task-catalogue";
import { setPipelineDefaults } from "@/lib/judge/runs/pipeline-defaults";
import { ok } from "@/lib/api/openapi/route-builders";

/** What the document shows of the body: the settings schema of each pipeline that has one (the path names which). */
function pipelineSettingsSchema(catalogue: TaskCatalogue): z.ZodType {
  const schemas = Object.entries(catalogue.pipelines).flatMap(([id, pipeline]) =>
    pipeline.settingsSchema ? [pipeline.settingsSchema.describe(`The settings of ${id}.`)] : [],
  );
  return schemas.length > 1 ? z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]) : (schemas[0] ?? z.unknown());
}

/** The project's default settings for new runs of a pipeline, e.g. its aggregation and verdict rule. */
export const PUT = withProject(
  "runs.manage",
  {
    summary: "The project's default settings for new runs of a pipeline (owners)",
    description: "The body is the settings schema of the pipeline the path names; a pipeline without settings → 400.",
    params: { pipeline: pipelineParamSchema },
    // Read here as any JSON: setPipelineDefaults parses it with the schema of the pipeline the path names.
    body: { kind: "json", schema: pipelineSettingsSchema, readBy: "handler" },
    responses: [ok("The settings saved (as a new version of the pipeline's defaults).")],
  },
  async ({ prisma, request, access, params, catalogue }) => {
    const body = await parseJsonBody(request, z.unknown());
    const settings = await setPipelineDefaults(
      prisma,
      access,
      catalogue.pipelines,
      pipelineParamSchema.parse(params.pipeline),
      body,
    );
    return Response.json(settings);
  },
);
