import { withProject } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { createUploadSession } from "@/lib/videos/upload-sessions";
import { createUploadSchema, uploadSessionAnswerSchema } from "@/lib/videos/videos.validation";
import { created } from "@/lib/api/openapi/route-builders";

/** Starts a resumable upload: `{relativePath, sizeBytes, sha256, model?, metadata?}`. */
export const POST = withProject(
  "videos.import",
  {
    summary: "Start a resumable upload",
    body: { kind: "json", schema: createUploadSchema },
    responses: [created("`{uploadId, receivedBytes, chunkBytes}`.", uploadSessionAnswerSchema)],
    errors: [409],
  },
  async ({ access, body: input }) =>
    Response.json(await createUploadSession(appDeps(), access, input), { status: 201 }),
);
