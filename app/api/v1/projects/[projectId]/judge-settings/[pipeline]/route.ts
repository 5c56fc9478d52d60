import { withProject } from "@/lib/api/with-project";
import { z } from "zod";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { pipelineParamSchema } from "@/lib/judge/endpoints.validation";
import { PIPELINES } from "@/lib/tasks/modules";
import { setPipelineDefaults } from "@/lib/judge/runs";

type Params = { projectId: string; pipeline: string };

/** The project's default settings for new runs of a pipeline, e.g. its aggregation and verdict rule. */
export const PUT = withProject<Params>("project.view", async ({ request, actor, params, project }) => {
  const body = await parseJsonBody(request, z.unknown());
  const settings = await setPipelineDefaults(prisma, actor, project.id, PIPELINES, pipelineParamSchema.parse(params.pipeline), body);
  return Response.json(settings);
});
