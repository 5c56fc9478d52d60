import { z } from "zod";
import { uploadScope } from "@/lib/api/project-scopes";
import { requestBodyStream } from "@/lib/api/request-body";
import { withProjectOf } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { appendUploadChunk, cancelUpload, uploadStatus } from "@/lib/videos/upload-sessions";
import { uploadOffsetSchema } from "@/lib/videos/videos.validation";

export const GET = withProjectOf(uploadScope(), "project.view", async ({ actor, record }) => Response.json(await uploadStatus(appDeps(), actor, record.id)));

/**
 * Appends the body at `?offset=N`; a wrong offset, or another append of the same upload still
 * running, answers 409 offset_mismatch. A chunk that would overrun the declared size is refused.
 */
export const PUT = withProjectOf(
  uploadScope(),
  "project.view",
  async ({ actor, record, request }) => {
    const offset = uploadOffsetSchema.parse(new URL(request.url).searchParams.get("offset"));
    const length = request.headers.get("content-length");
    const declaredBytes = length === null ? undefined : z.coerce.number().int().min(0).parse(length);
    const body = requestBodyStream(request);
    return Response.json(await appendUploadChunk(appDeps(), actor, record.id, offset, body, declaredBytes));
  },
  { body: "bytes" },
);

export const DELETE = withProjectOf(uploadScope(), "project.view", async ({ actor, record }) => {
  await cancelUpload(appDeps(), actor, record.id);
  return new Response(null, { status: 204 });
});
