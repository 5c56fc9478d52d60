import { z } from "zod";
import { videoAnswerSchema } from "./videos.validation";

const blankToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value.trim() === "" ? null : value.trim();

const extraValueSchema = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);
const extraSchema = z
  .record(z.string().trim().min(1).max(100), extraValueSchema)
  .refine((extra) => Object.keys(extra).length <= 100, "At most 100 extra fields.");

/** `PATCH /api/v1/videos/:id`: only the fields given change; `null` (or "") clears a field; `extra` is the whole new set. */
export const videoEditSchema = z
  .object({
    prompt: z.string().max(20_000).nullable().optional().transform(blankToNull),
    model: z.string().max(200).nullable().optional().transform(blankToNull),
    dimensions: z.array(z.string().trim().min(1).max(100)).max(32).optional(),
    seed: z.string().max(100).nullable().optional().transform(blankToNull),
    sampleIndex: z.number().int().min(0).max(1_000_000).nullable().optional(),
    extra: extraSchema.optional(),
    /** The `updatedAt` of the video the editor saw: a video changed since → 409, nothing saved. */
    expectedUpdatedAt: z.iso.datetime().optional(),
  })
  .strict();
export type VideoEditInput = z.output<typeof videoEditSchema>;
/** What a client sends (the video page's editor): the schema's input. */
export type VideoEditRequest = z.input<typeof videoEditSchema>;

/** What `PATCH /api/v1/videos/:id` answers: the video, with what changed field by field (video-edits.ts FieldChange). */
export const videoEditAnswerSchema = videoAnswerSchema.extend({
  changes: z.array(
    z.object({
      field: z.string().describe("`prompt`, `model`, `dimensions`, `seed`, `sampleIndex`, or `extra.<key>`."),
      before: z.unknown(),
      after: z.unknown(),
      overwrite: z.boolean().describe("The field held a value that the change replaces (or clears)."),
    }),
  ),
});
