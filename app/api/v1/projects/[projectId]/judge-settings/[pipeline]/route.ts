import { withProject } from "@/lib/api/with-project";
import { z } from "zod";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { pipelineParamSchema } from "@/lib/judge/endpoints.validation";
import { installedPipelines } from "@/lib/task-modules/installed-task-modules";
import { setPipelineDefaults } from "@/lib/judge/runs";
// Installs the task modules in this bundle's copy of the core too (instrumentation.ts installs them for the server).
import "@/lib/tasks/modules";

type Params = { projectId: string; pipeline: string };

/** The project's default settings for new runs of a pipeline, e.g. its aggregation and verdict rule. */
export const PUT = withProject<Params>("project.view", async ({ request, actor, params, project }) => {
  const body = await parseJsonBody(request, z.unknown());
  const settings = await setPipelineDefaults(prisma, actor, project.id, installedPipelines(), pipelineParamSchema.parse(params.pipeline), body);
  return Response.json(settings);
});
