import { parseJsonBody, withActor } from "@/lib/api/handler";
import { projectIdSchema } from "@/lib/projects/projects.validation";
import { appDeps } from "@/lib/videos/app-deps";
import { createUploadSession } from "@/lib/videos/upload-sessions";
import { createUploadSchema } from "@/lib/videos/videos.validation";

/** Starts a resumable upload: `{relativePath, sizeBytes, sha256, model?, metadata?}`. */
export const POST = withActor<{ projectId: string }>(async (request, actor, params) => {
  const input = await parseJsonBody(request, createUploadSchema);
  return Response.json(await createUploadSession(appDeps(), actor, projectIdSchema.parse(params.projectId), input), { status: 201 });
});
