/** The caption results' query schemas: a run's captions, the leaderboard, and the captions page's list. */
import { z } from "zod";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../../validation/nul-bytes";

export const CAPTION_PIPELINES = ["caption_style", "caption_content"] as const;
export type CaptionPipeline = (typeof CAPTION_PIPELINES)[number];

/** The per-caption yes/no metrics (run_metric rows of a style run) a caption list can filter on. */
export const CAPTION_FLAGS = ["judge_broke_rule", "length_violation"] as const;
export type CaptionFlag = (typeof CAPTION_FLAGS)[number];

const formatSchema = z.enum(["json", "csv", "jsonl"]).default("json");

export const captionResultsQuerySchema = z
  .object({
    model: z.string().trim().min(1).max(200).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
    type: z.string().trim().min(1).max(100).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
    videoId: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, "Invalid id.")
      .optional(),
    /** Style runs only: captions where a length rule failed, or where the judge scored above the rules' cap. */
    flag: z.enum(CAPTION_FLAGS).optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(500).default(50),
    /** csv and jsonl: every caption of the run matching the filter, as an attachment (no pages). */
    format: formatSchema,
  })
  .strict();
export type CaptionResultsQuery = z.output<typeof captionResultsQuerySchema>;

export const captionLeaderboardQuerySchema = z
  .object({
    /** A style run and/or a content run (at most one of each). */
    runId: z
      .array(z.string().min(1).max(64))
      .min(1, "name a caption run with runId")
      .max(2, "at most two runs: one style run and one content run"),
    format: formatSchema,
  })
  .strict();

export const captionListQuerySchema = z
  .object({
    styleRunId: z.string().min(1).max(64).optional(),
    contentRunId: z.string().min(1).max(64).optional(),
    model: captionResultsQuerySchema.shape.model,
    type: captionResultsQuerySchema.shape.type,
    videoId: captionResultsQuerySchema.shape.videoId,
    flag: captionResultsQuerySchema.shape.flag,
    page: captionResultsQuerySchema.shape.page,
    pageSize: captionResultsQuerySchema.shape.pageSize,
  })
  .strict();
export type CaptionListQuery = z.output<typeof captionListQuerySchema>;
