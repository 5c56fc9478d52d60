/** The QA results' query schemas: a run's questions, the accuracy overview, the question list and the QA page. */
import { z } from "zod";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../../validation/nul-bytes";

export const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Invalid id.");
const exportFormat = z.enum(["json", "csv", "jsonl"]).default("json");
const textFilter = (max: number) => z.string().trim().min(1).max(max).refine(noNulBytes, NUL_BYTE_MESSAGE);

/** The question list's whitelisted filter (`questionFormat`, since `format` names the export format). */
export const qaQuestionFilterSchema = z.object({
  outcome: z.enum(["correct", "wrong", "unanswerable", "pending"]).optional(),
  questionFormat: z.enum(["mc", "open"]).optional(),
  category: textFilter(100).optional(),
  granularity: z.enum(["coarse", "fine"]).optional(),
  videoId: idSchema.optional(),
  /** Questions the text-only baseline answered right: their score may come from language priors. */
  flag: z.enum(["right_without_video"]).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});

export const qaRunResultsQuerySchema = qaQuestionFilterSchema.extend({ format: exportFormat }).strict();
export type QaRunResultsQuery = z.output<typeof qaRunResultsQuerySchema>;

export const qaAccuracyQuerySchema = z
  .object({
    /** The runs to compare; none: the latest run of each model at each frame count. */
    runId: z.array(idSchema).max(20, "at most 20 runs").default([]),
    format: exportFormat,
  })
  .strict();

/** The project's questions, whitelisted filter, a page at a time. */
export const questionListQuerySchema = qaQuestionFilterSchema
  .pick({ questionFormat: true, category: true, granularity: true, videoId: true, page: true, pageSize: true })
  .extend({ setId: idSchema.optional() })
  .strict();

/** The QA page's query: the runs compared, the accuracy breakdown shown, and the list of one run's questions. */
export const qaPageQuerySchema = qaQuestionFilterSchema
  .extend({
    runId: z.array(idSchema).max(20, "at most 20 runs").default([]),
    by: z.enum(["all", "format", "category", "granularity", "format_category_granularity"]).default("format"),
    /** The run whose questions are listed; default the first compared run. */
    listRunId: idSchema.optional(),
  })
  .strict();
