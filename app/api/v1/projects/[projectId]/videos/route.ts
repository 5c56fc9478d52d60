import { withProject } from "@/lib/api/with-project";
import { randomUUID } from "node:crypto";
import { readMultipart } from "@/lib/format/multipart";

import { maxUploadBytes } from "@/lib/config/limits";
import { PayloadTooLargeError, ValidationError } from "@/lib/errors";
import { StorageTooLargeError } from "@/lib/storage/object-storage";
import { appDeps } from "@/lib/videos/app-deps";
import { browseVideos } from "@/lib/videos/browse-videos";
import { videoJson } from "@/lib/videos/queries";
import { registerStoredVideo } from "@/lib/videos/register-video";
import { videoListQuerySchema } from "@/lib/videos/video-filter";
import { videoMetadataSchema } from "@/lib/videos/videos.validation";
import { rejectNulBytes } from "@/lib/validation/nul-bytes";
import { ok, created } from "@/lib/api/openapi/route-builders";
import { z } from "zod";

/** The video list: every filter of `videoListQuerySchema`; a malformed one is a 400 naming the field. */
export const GET = withProject(
  "project.view",
  {
    summary: "The video list, filtered, sorted and paginated",
    description:
      "`min.<metric>`, `max.<metric>` and `is.<metric>` exist for every metric of the registered tasks; a filter the run's task does not declare is a 400 naming it. Page with `cursor` (`nextCursor`/`prevCursor` of the answer) or `page`.",
    query: videoListQuerySchema,
    responses: [ok("`{run, page, pageSize, total, totalExact, nextCursor, prevCursor, videos}`.")],
  },
  async ({ access, query, catalogue }) => {
    return Response.json(await browseVideos(appDeps().prisma, access, query, catalogue));
  },
);

/** Registers one video: multipart `file`, optional `path` and `metadata` (JSON). Streams to storage. */
export const POST = withProject(
  "videos.import",
  {
    summary: "Register one video (owners), streamed to storage",
    body: {
      kind: "multipart",
      fields: z.object({
        path: z.string().optional().describe("The video's relative path; default its file name."),
        model: z.string().optional().describe("The generator model."),
      }),
      jsonFields: { metadata: videoMetadataSchema },
      files: { file: "The video." },
    },
    responses: [created("The video.")],
    errors: [409, 413, 422],
  },
  async ({ access, request }) => {
    const deps = appDeps();
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > maxUploadBytes() + 1024 * 1024)
      throw new PayloadTooLargeError(`The upload is larger than the limit of ${maxUploadBytes()} bytes.`);

    let stored: { key: string; sha256: string; size: number; filename: string } | null = null;
    try {
      const fields = await readMultipart(request, async (file) => {
        if (file.field !== "file") {
          file.stream.resume();
          throw new ValidationError(`Unexpected file part "${file.field}"; send the video as "file".`);
        }
        const key = `incoming/${randomUUID()}`;
        try {
          const result = await deps.storage.put(key, file.stream, { maxBytes: maxUploadBytes() });
          stored = { ...result, filename: file.filename };
        } catch (error) {
          if (error instanceof StorageTooLargeError)
            throw new PayloadTooLargeError(
              `The file is larger than the limit of ${maxUploadBytes()} bytes (MAX_UPLOAD_BYTES).`,
            );
          throw error;
        }
      });
      const file = stored as { key: string; sha256: string; size: number; filename: string } | null;
      if (!file) throw new ValidationError('Send the video as a multipart part named "file".');
      let metadata;
      if (fields.metadata) {
        let raw: unknown;
        try {
          raw = JSON.parse(fields.metadata);
        } catch {
          throw new ValidationError("metadata must be JSON.");
        }
        rejectNulBytes(raw, "metadata");
        metadata = videoMetadataSchema.parse(raw);
      }
      const video = await registerStoredVideo(deps, access, {
        incomingKey: file.key,
        sha256: file.sha256,
        sizeBytes: file.size,
        relativePath: fields.path || file.filename,
        model: fields.model,
        metadata,
      });
      stored = null; // registerStoredVideo owns the incoming object now
      return Response.json(videoJson(video), { status: 201 });
    } finally {
      const leftover = stored as { key: string } | null;
      if (leftover) await deps.storage.delete(leftover.key);
    }
  },
);
