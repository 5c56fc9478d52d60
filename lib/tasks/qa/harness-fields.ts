/** What a harness import is asked for: the JSON fields, and the multipart text fields of the upload route. */
import { z } from "zod";

export const HARNESS_FORMATS = ["lmms-eval", "vlmevalkit"] as const;

export const harnessImportFieldsSchema = z.strictObject({
  questionSetId: z.string().min(1).max(64),
  format: z.enum(HARNESS_FORMATS, { error: 'format must be "lmms-eval" or "vlmevalkit"' }),
  model: z.string().trim().min(1, "the model's name is needed").max(200),
  dryRun: z.boolean().default(false),
  /** Create the questions no question of the set matches (on the project's videos) instead of listing them. */
  createQuestions: z.boolean().default(false),
  /** Judge the open and letterless answers with this endpoint, as a QA run's judge step does (a job). */
  judgeEndpointId: z.string().min(1).max(64).optional(),
  /** The file's answers were given without the video (a harness run with no frames): the run is a text-only run. */
  textOnly: z.boolean().default(false),
  /** A text-only run of the same set (an own run with its text-only baseline, or an external run marked textOnly) whose answers become this run's baseline. */
  baselineRunId: z.string().min(1).max(64).optional(),
});
/** The multipart text fields beside the file (the set comes from the path). */
export const harnessUploadFieldsSchema = z.strictObject({
  format: harnessImportFieldsSchema.shape.format,
  model: harnessImportFieldsSchema.shape.model,
  dryRun: z
    .enum(["true", "false"], { error: 'dryRun must be "true" or "false"' })
    .optional()
    .transform((value) => value === "true"),
  createQuestions: z
    .enum(["true", "false"], { error: 'createQuestions must be "true" or "false"' })
    .optional()
    .transform((value) => value === "true"),
  judgeEndpointId: z
    .string()
    .max(64)
    .optional()
    .transform((value) => value?.trim() || undefined),
  textOnly: z
    .enum(["true", "false"], { error: 'textOnly must be "true" or "false"' })
    .optional()
    .transform((value) => value === "true"),
  baselineRunId: z
    .string()
    .max(64)
    .optional()
    .transform((value) => value?.trim() || undefined),
});
export type HarnessImportFields = Omit<z.output<typeof harnessImportFieldsSchema>, "createQuestions" | "textOnly"> & {
  createQuestions?: boolean;
  textOnly?: boolean;
};
