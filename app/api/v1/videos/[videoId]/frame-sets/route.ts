import { readMultipart } from "@/lib/format/multipart";
import { videoLookup } from "@/lib/api/project-lookups";
import { withProjectOf } from "@/lib/api/with-project";
import { MAX_FRAME_BYTES, MAX_FRAME_SET_BYTES } from "@/lib/config/limits";
import { PayloadTooLargeError, ValidationError } from "@/lib/errors";
import { rejectNulBytes } from "@/lib/validation/nul-bytes";
import { appDeps } from "@/lib/videos/app-deps";
import { createFrameSet } from "@/lib/videos/frame-sets";
import { z } from "zod";
import { frameSetParametersSchema, frameManifestSchema } from "@/lib/frames/frame-set-parameters";
import { ok, created } from "@/lib/api/openapi/route-builders";

/**
 * Frames extracted by a client: multipart `parameters` (JSON), `manifest` (JSON array) and one
 * JPEG part per frame, named as in the manifest. All-or-nothing.
 */
export const POST = withProjectOf(
  videoLookup(),
  "videos.import",
  {
    summary: "Frames extracted by a client, all-or-nothing (owners)",
    body: {
      kind: "multipart",
      fields: z.object({
        decoder: z
          .string()
          .optional()
          .describe('What decoded the video: "webcodecs", "ffmpeg.wasm" or "ffmpeg" (kept up to 40 characters).'),
        decoderVersion: z
          .string()
          .optional()
          .describe('Its build, e.g. "Chrome 156.0.0.0" or "ffmpeg 5.1.4" (kept up to 60 characters).'),
      }),
      jsonFields: { parameters: frameSetParametersSchema, manifest: frameManifestSchema },
      files: {},
      otherFiles: "One JPEG per frame, named as in the manifest.",
    },
    responses: [ok("The frame set already stored with these parameters."), created("The frame set.")],
    errors: [413],
  },
  async ({ access, record, request }) => {
    const deps = appDeps();
    // withProjectOf answered 404/403 before reading a large body.
    const videoId = record.id;
    const files = new Map<string, Uint8Array>();
    let total = 0;
    const fields = await readMultipart(
      request,
      async (file) => {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of file.stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          total += chunk.length;
          if (size > MAX_FRAME_BYTES)
            throw new PayloadTooLargeError(`${file.filename} is larger than ${MAX_FRAME_BYTES} bytes.`);
          if (total > MAX_FRAME_SET_BYTES)
            throw new PayloadTooLargeError(`The frame set is larger than ${MAX_FRAME_SET_BYTES} bytes.`);
          chunks.push(chunk);
        }
        if (files.has(file.filename)) throw new ValidationError(`Two parts are named ${file.filename}.`);
        files.set(file.filename, Buffer.concat(chunks));
      },
      { maxFiles: 5000, maxFields: 10 },
    );
    const parseJson = (name: string) => {
      if (!fields[name]) throw new ValidationError(`The ${name} part is missing.`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(fields[name]);
      } catch {
        throw new ValidationError(`${name} must be JSON.`);
      }
      rejectNulBytes(parsed, name);
      return parsed;
    };
    const result = await createFrameSet(deps, access, videoId, {
      parameters: parseJson("parameters"),
      manifest: parseJson("manifest"),
      files,
      decoder: fields.decoder?.slice(0, 40) ?? null,
      decoderVersion: fields.decoderVersion?.slice(0, 60) ?? null,
    });
    return Response.json(result, { status: result.created ? 201 : 200 });
  },
);
