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
