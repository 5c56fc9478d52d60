import { withProject } from "@/lib/api/with-project";
import { pipelineQuerySchema } from "@/lib/judge/runs/run-input.validation";
import { pipelinePromptVersions, savePromptVersion } from "@/lib/prompt-versions/prompt-versions";
import { savePromptVersionSchema } from "@/lib/prompt-versions/prompt-versions.validation";
import { ok, created } from "@/lib/api/openapi/route-builders";

/** `?pipeline=<pipeline id>` (one of the registry's): each template the pipeline renders, its shipped text and hash, and the project's versions of it. */
export const GET = withProject(
  "project.view",
  {
    summary: "Each template a pipeline renders, its shipped text and the project's versions",
    // Read by the handler with Object.fromEntries, which keeps an empty or repeated value that the wrapper's parse would leave out.
    query: { readBy: "handler", schema: pipelineQuerySchema },
    responses: [ok("`{pipeline, templates}`.")],
  },
  async ({ prisma, request, access, catalogue }) => {
    const { pipeline } = pipelineQuerySchema(catalogue).parse(Object.fromEntries(new URL(request.url).searchParams));
    const templates = await pipelinePromptVersions(prisma, access, catalogue.pipelines[pipeline]!);
    return Response.json({ pipeline, templates });
  },
);

/** `{"templateId","text","note"?}` (owners): a new version (201), or the version that already has this text (200). */
export const POST = withProject(
  "prompts.manage",
  {
    summary: "Save a prompt version (owners)",
    body: { kind: "json", schema: savePromptVersionSchema },
    responses: [
      ok("That text is already a version (`created: false`)."),
      created("The new version (`created: true`)."),
    ],
  },
  async ({ prisma, access, body: input }) => {
    const version = await savePromptVersion(prisma, access, input);
    return Response.json(version, { status: version.created ? 201 : 200 });
  },
);
