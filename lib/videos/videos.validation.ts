import { z } from "zod";
import { recordIdSchema } from "../validation/ids";

export const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, "sha256 must be 64 lowercase hex characters.");

/** Explicit metadata for a video; any field given wins over what the path says. */
export const videoMetadataSchema = z
  .object({
    prompt: z.string().trim().min(1).max(20_000).optional(),
    dimension: z
      .union([z.string().trim().min(1).max(100), z.array(z.string().trim().min(1).max(100)).max(32)])
      .optional(),
    model: z.string().trim().min(1).max(200).optional(),
    sampleIndex: z.number().int().min(0).max(1_000_000).optional(),
    seed: z.union([z.string().max(100), z.number()]).optional(),
    // zod leaves a "__proto__" key out of a record: refused by name rather than lost (metadata files refuse it too).
    extra: z
      .preprocess(
        (extra, ctx) => {
          if (typeof extra === "object" && extra !== null && Object.hasOwn(extra, "__proto__"))
            ctx.addIssue({ code: "custom", message: '"__proto__" cannot name an extra field; rename it.' });
          return extra;
        },
        z.record(z.string(), z.unknown()),
      )
      .optional(),
  })
  .strict();
export type VideoMetadataInput = z.infer<typeof videoMetadataSchema>;

export const relativePathSchema = z.string().min(1, "The file needs a name.").max(4096);

export const createUploadSchema = z.object({
  relativePath: relativePathSchema,
  sizeBytes: z.number().int().min(0),
  sha256: sha256Schema,
  /** A generator model typed in the import form; it wins over a model folder in the path. */
  model: z.string().trim().max(200).optional(),
  metadata: videoMetadataSchema.optional(),
});

export const extractionErrorSchema = z.object({ message: z.string().trim().min(1).max(2000) });

/** An upload session's id in `/api/v1/uploads/{uploadId}`. */
export const uploadIdSchema = recordIdSchema.regex(/^[A-Za-z0-9_-]+$/);
/** `?offset=` of an upload chunk: where in the file its bytes go. */
export const uploadOffsetSchema = z.coerce.number().int().min(0);

/** POST /projects/{projectId}/uploads: the upload session opened, and the chunk size to send. */
export const uploadSessionAnswerSchema = z.object({
  uploadId: z.string(),
  receivedBytes: z.number().int(),
  chunkBytes: z.number().int().describe("The bytes each chunk should hold."),
});
export type UploadSessionAnswer = z.infer<typeof uploadSessionAnswerSchema>;

/** GET /uploads/{uploadId}: where the upload is, and the video it became once complete. */
export const uploadStatusAnswerSchema = z.object({
  uploadId: z.string(),
  status: z.enum(["open", "complete", "failed", "cancelled"]),
  receivedBytes: z.number().int().describe("Where the next chunk starts."),
  sizeBytes: z.number().int(),
  videoId: z.string().nullable(),
  error: z.string().nullable(),
});
export type UploadStatusAnswer = z.infer<typeof uploadStatusAnswerSchema>;

/** PUT /uploads/{uploadId}: the bytes received after the chunk. */
export const uploadChunkAnswerSchema = z.object({ receivedBytes: z.number().int() });
export type UploadChunkAnswer = z.infer<typeof uploadChunkAnswerSchema>;

/** A video as the video routes answer it (queries.ts videoJson). */
export const videoAnswerSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  fileName: z.string(),
  relativePath: z.string(),
  sha256: z.string(),
  sizeBytes: z.number().int(),
  contentType: z.string(),
  status: z.enum(["pending_extraction", "ready", "failed"]),
  error: z.string().nullable(),
  prompt: z.string().nullable(),
  promptTruncated: z.string().nullable().describe("The prompt as the file name carries it."),
  matchedPrompt: z.boolean(),
  dimensions: z.array(z.string()),
  model: z.string().nullable(),
  sampleIndex: z.number().int().nullable(),
  seed: z.string().nullable(),
  extra: z.unknown().describe("Other metadata, as imported."),
  durationS: z.number().nullable(),
  fps: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  codec: z.string().nullable(),
  container: z.string().nullable(),
  frameCount: z.number().int().nullable(),
  createdAt: z.string().describe("ISO 8601."),
  updatedAt: z.string().describe("Send it back as `expectedUpdatedAt` with an edit: a video changed since is refused."),
  url: z.string().describe("The file's URL."),
});
export type VideoAnswer = z.infer<typeof videoAnswerSchema>;

/** GET /videos/{videoId}: the video with its frame sets and their frames. */
export const videoDetailAnswerSchema = videoAnswerSchema.extend({
  frameSets: z.array(
    z.object({
      id: z.string(),
      mode: z.string(),
      parameters: z.unknown().describe("The extraction parameters."),
      decoder: z.string().nullable(),
      decoderVersion: z.string().nullable(),
      frameCount: z.number().int(),
      keyFrameCount: z.number().int(),
      createdAt: z.string(),
      frames: z.array(
        z.object({
          id: z.string(),
          index: z.number().int(),
          timestampS: z.number(),
          isKeyFrame: z.boolean(),
          cluster: z.number().int().nullable().describe("The key frame whose cluster it belongs to; null: none."),
          width: z.number().int(),
          height: z.number().int(),
          sha256: z.string(),
          url: z.string(),
        }),
      ),
    }),
  ),
});
