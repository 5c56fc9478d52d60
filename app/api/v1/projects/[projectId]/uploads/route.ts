import { withProject } from "@/lib/api/with-project";
import { parseJsonBody } from "@/lib/api/handler";
import { appDeps } from "@/lib/videos/app-deps";
import { createUploadSession } from "@/lib/videos/upload-sessions";
import { createUploadSchema } from "@/lib/videos/videos.validation";

/** Starts a resumable upload: `{relativePath, sizeBytes, sha256, model?, metadata?}`. */
export const POST = withProject<{ projectId: string }>("project.view", async ({ request, actor, project }) => {
  const input = await parseJsonBody(request, createUploadSchema);
  return Response.json(await createUploadSession(appDeps(), actor, project.id, input), { status: 201 });
});
