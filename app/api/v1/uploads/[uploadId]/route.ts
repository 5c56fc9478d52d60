import { Readable } from "node:stream";
import { z } from "zod";
import { withActor } from "@/lib/api/handler";
import { ValidationError } from "@/lib/errors";
import { appDeps } from "@/lib/videos/app-deps";
import { appendUploadChunk, cancelUpload, uploadStatus } from "@/lib/videos/upload-sessions";

type Params = { uploadId: string };
const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

export const GET = withActor<Params>(async (_request, actor, params) => Response.json(await uploadStatus(appDeps(), actor, idSchema.parse(params.uploadId))));

/** Appends the body at `?offset=N`; a wrong offset answers 409 with the offset to resume from. */
export const PUT = withActor<Params>(async (request, actor, params) => {
  const offset = z.coerce.number().int().min(0).parse(new URL(request.url).searchParams.get("offset"));
  if (!request.body) throw new ValidationError("The chunk is empty.");
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  return Response.json(await appendUploadChunk(appDeps(), actor, idSchema.parse(params.uploadId), offset, body));
}, { body: "bytes" });

export const DELETE = withActor<Params>(async (_request, actor, params) => {
  await cancelUpload(appDeps(), actor, idSchema.parse(params.uploadId));
  return new Response(null, { status: 204 });
});
