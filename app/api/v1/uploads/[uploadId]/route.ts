import { z } from "zod";
import { uploadLookup } from "@/lib/api/project-lookups";
import { requestBodyStream } from "@/lib/format/request-body-stream";
import { withProjectOf } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { appendUploadChunk, cancelUpload, uploadStatus } from "@/lib/videos/upload-sessions";
import {
  uploadChunkAnswerSchema,
  uploadIdSchema,
  uploadOffsetSchema,
  uploadStatusAnswerSchema,
} from "@/lib/videos/videos.validation";
import { ok, noContent } from "@/lib/api/openapi/route-builders";

export const GET = withProjectOf(
  uploadLookup(),
  "videos.import",
  {
    summary: "An upload's status",
    params: { uploadId: uploadIdSchema },
    responses: [ok("The upload's status and received bytes.", uploadStatusAnswerSchema)],
  },
  async ({ access, record }) => Response.json(await uploadStatus(appDeps(), access, record.id)),
);

/**
 * Appends the body at `?offset=N`; a wrong offset, or another append of the same upload still
 * running, answers 409 offset_mismatch. A chunk that would overrun the declared size is refused.
 */
export const PUT = withProjectOf(
  uploadLookup(),
  "videos.import",
  {
    summary: "Append a chunk at `?offset=`",
    description:
      "A wrong offset, or another chunk of the upload being written, → 409 offset_mismatch with `error.details.receivedBytes`; a chunk past the declared size → 413, nothing of it kept.",
    params: { uploadId: uploadIdSchema },
    // Read by the handler: `offset` alone, parsed as it comes (an empty one is not left out; an error names no field).
    query: { readBy: "handler", schema: z.object({ offset: uploadOffsetSchema }) },
    body: { kind: "bytes", description: "The chunk's bytes." },
    responses: [ok("The upload's status after the chunk.", uploadChunkAnswerSchema)],
    errors: [409, 413],
  },
  async ({ access, record, request }) => {
    const offset = uploadOffsetSchema.parse(new URL(request.url).searchParams.get("offset"));
    const length = request.headers.get("content-length");
    const declaredBytes = length === null ? undefined : z.coerce.number().int().min(0).parse(length);
    const body = requestBodyStream(request);
    return Response.json(await appendUploadChunk(appDeps(), access, record.id, offset, body, declaredBytes));
  },
);

export const DELETE = withProjectOf(
  uploadLookup(),
  "videos.import",
  {
    summary: "Cancel an upload",
    params: { uploadId: uploadIdSchema },
    responses: [noContent("Cancelled.")],
  },
  async ({ access, record }) => {
    await cancelUpload(appDeps(), access, record.id);
    return new Response(null, { status: 204 });
  },
);
