import { withProject } from "@/lib/api/with-project";
import { prisma } from "@/lib/db/prisma";
import { pipelineParamSchema } from "@/lib/judge/endpoints.validation";
import { listSettingsVersions } from "@/lib/judge/settings-versions";

type Params = { projectId: string; pipeline: string };

/** Every saved version of the project's defaults for a pipeline's new runs, newest first. */
export const GET = withProject<Params>("project.view", async ({ actor, params, project }) =>
  Response.json({ versions: await listSettingsVersions(prisma, actor, project.id, pipelineParamSchema.parse(params.pipeline)) }),
);
