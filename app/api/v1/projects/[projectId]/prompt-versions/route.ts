import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { pipelineQuerySchema } from "@/lib/judge/endpoints.validation";
import { installedPipelines } from "@/lib/task-modules/installed-task-modules";
import { pipelinePromptVersions, savePromptVersion } from "@/lib/prompt-versions/prompt-versions";
import { savePromptVersionSchema } from "@/lib/prompt-versions/prompt-versions.validation";
// Installs the task modules in this bundle's copy of the core too (instrumentation.ts installs them for the server).
import "@/lib/tasks/modules";

type Params = { projectId: string };

/** `?pipeline=<pipeline id>` (one of the registry's): each template the pipeline renders, its shipped text and hash, and the project's versions of it. */
export const GET = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const { pipeline } = pipelineQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const templates = await pipelinePromptVersions(prisma, actor, project.id, installedPipelines()[pipeline]!);
  return Response.json({ pipeline, templates });
});

/** `{"templateId","text","note"?}` (owners): a new version (201), or the version that already has this text (200). */
export const POST = withProject<Params>("project.view", async ({ request, actor, project }) => {
  const input = await parseJsonBody(request, savePromptVersionSchema);
  const version = await savePromptVersion(prisma, actor, project.id, input);
  return Response.json(version, { status: version.created ? 201 : 200 });
});
