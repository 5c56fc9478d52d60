import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { requestBodyStream } from "@/lib/api/request-body";
import { appDeps } from "@/lib/videos/app-deps";
import { appendUploadChunk, cancelUpload, uploadStatus } from "@/lib/videos/upload-sessions";
import { uploadIdSchema, uploadOffsetSchema } from "@/lib/videos/videos.validation";

type Params = { uploadId: string };

export const GET = withActor<Params>(async (_request, actor, params) => Response.json(await uploadStatus(appDeps(), actor, uploadIdSchema.parse(params.uploadId))));

/**
 * Appends the body at `?offset=N`; a wrong offset, or another append of the same upload still
 * running, answers 409 offset_mismatch. A chunk that would overrun the declared size is refused.
 */
export const PUT = withActor<Params>(
  async (request, actor, params) => {
    const offset = uploadOffsetSchema.parse(new URL(request.url).searchParams.get("offset"));
    const length = request.headers.get("content-length");
    const declaredBytes = length === null ? undefined : z.coerce.number().int().min(0).parse(length);
    const body = requestBodyStream(request);
    return Response.json(await appendUploadChunk(appDeps(), actor, uploadIdSchema.parse(params.uploadId), offset, body, declaredBytes));
  },
  { body: "bytes" },
);

export const DELETE = withActor<Params>(async (_request, actor, params) => {
  await cancelUpload(appDeps(), actor, uploadIdSchema.parse(params.uploadId));
  return new Response(null, { status: 204 });
});
