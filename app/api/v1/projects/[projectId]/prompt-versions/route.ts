import { z } from "zod";
import { parseJsonBody, withActor } from "@/lib/api/handler";
import { prisma } from "@/lib/db/prisma";
import { pipelineIdSchema } from "@/lib/judge/endpoints.validation";
import { PIPELINES } from "@/lib/tasks/modules";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { pipelinePromptVersions, savePromptVersion } from "@/lib/prompt-versions/prompt-versions";
import { savePromptVersionSchema } from "@/lib/prompt-versions/prompt-versions.validation";

type Params = { projectId: string };

const listQuerySchema = z.object({ pipeline: pipelineIdSchema });

/** `?pipeline=hallucination`: each template the pipeline renders, its shipped text and hash, and the project's versions of it. */
export const GET = withActor<Params>(async (request, actor, params) => {
  const { pipeline } = listQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const templates = await pipelinePromptVersions(prisma, actor, projectIdSchema.parse(params.projectId), PIPELINES[pipeline]!);
  return Response.json({ pipeline, templates });
});

/** `{"templateId","text","note"?}` (owners): a new version (201), or the version that already has this text (200). */
export const POST = withActor<Params>(async (request, actor, params) => {
  const input = await parseJsonBody(request, savePromptVersionSchema);
  const version = await savePromptVersion(prisma, actor, projectIdSchema.parse(params.projectId), input);
  return Response.json(version, { status: version.created ? 201 : 200 });
});
