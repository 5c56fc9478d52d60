import { z } from "zod";
import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { pipelineParamSchema } from "@/lib/judge/endpoints.validation";
import { PIPELINES } from "@/lib/tasks/modules";
import { setPipelineDefaults } from "@/lib/judge/runs";
import { projectIdSchema } from "@/lib/projects/projects.validation";

type Params = { projectId: string; pipeline: string };

/** The project's default settings for new runs of a pipeline, e.g. hallucination aggregation and verdict. */
export const PUT = withActor<Params>(async (request, actor, params) => {
  const body = await parseJsonBody(request, z.unknown());
  const settings = await setPipelineDefaults(prisma, actor, projectIdSchema.parse(params.projectId), PIPELINES, pipelineParamSchema.parse(params.pipeline), body);
  return Response.json(settings);
});
