import { z } from "zod";
import { aspectIdSchema } from "../aspects";
import type { Strength, Verdict } from "../verdicts";

/** What a source row may name, whatever column its format calls it; `mapping` renames any of them. */
export const LOGICAL_COLUMNS = [
  "video_a",
  "video_b",
  "sha256_a",
  "sha256_b",
  "prompt",
  "generator_a",
  "generator_b",
  "aspect",
  "rater",
  "verdict",
  "strength",
] as const;
export type LogicalColumn = (typeof LOGICAL_COLUMNS)[number];

/** The most characters one cell may hold (a prompt, a path, a name): longer is refused, never cut. */
export const MAX_CELL_CHARS = 4000;

export const PAIRWISE_IMPORT_FORMAT_IDS = ["uve", "arena", "genai-bench", "csv", "jsonl"] as const;

export const pairImportOptionsSchema = z
  .object({
    format: z.enum(PAIRWISE_IMPORT_FORMAT_IDS),
    name: z.string().trim().min(1).max(200),
    /** The source's column for each logical column, e.g. an arena file's `{video_a: "left_video"}`. */
    mapping: z.partialRecord(z.enum(LOGICAL_COLUMNS), z.string().min(1).max(200)).default({}),
    /** The aspect of rows that name none (arena battles, GenAI-Bench): "overall" unless given. */
    aspect: aspectIdSchema.optional(),
    /** When given, only these aspects are accepted: a row of another is refused as an unknown aspect. */
    aspects: z.array(aspectIdSchema).min(1).max(20).optional(),
    /** UVE's annotator (one per file) and GenAI-Bench's judge: the names their votes are kept under. */
    rater: z.string().trim().min(1).max(200).optional(),
    judge: z.string().trim().min(1).max(200).optional(),
    /** The file's pairs may show two different prompts (refused otherwise). */
    crossPrompt: z.boolean().default(false),
    citation: z.string().max(2000).default(""),
    dryRun: z.boolean().default(true),
  })
  .strict();
export type PairImportOptions = z.infer<typeof pairImportOptionsSchema>;

/** Why a row (or one rater's vote in it) was not imported. */
export const REFUSAL_REASONS = [
  "malformed_row",
  "missing_column",
  "cell_too_long",
  "unknown_verdict",
  "no_verdict_label",
  "unknown_aspect",
  "too_many_aspects",
  "bad_strength",
  "same_video",
  "two_prompts",
  "no_prompt",
  "no_generator",
  "duplicate_vote",
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface Refusal {
  /** 1-based: the data row of a CSV (header not counted), the line of a JSONL file, the item of a JSON document. */
  row: number;
  reason: RefusalReason;
  message: string;
  /** The rater whose vote was refused when the row held several (GenAI-Bench: the human and the judge). */
  rater?: string;
}

/** A vote as a format reads it from one row, before the project's videos are matched. */
export interface SourceVote {
  row: number;
  /** The pair's identity in the file: its two videos, else its prompt and generators, else the row (a battle). */
  pairKey: string;
  prompt: string | null;
  /** The prompt when neither the row nor a matched video gives one (UVE-Bench: its dataset and clip number). */
  promptFallback?: string | null;
  generatorA: string | null;
  generatorB: string | null;
  videoA: string | null;
  videoB: string | null;
  sha256A: string | null;
  sha256B: string | null;
  aspect: string;
  rater: string;
  verdict: Verdict;
  strength: Strength;
}

/** What one row gave: votes, refusals, and the readings made of it that the file did not say outright. */
export interface RowReading {
  votes: SourceVote[];
  refusals: Refusal[];
  interpretations: string[];
}

export const pairImportAnswerSchema = z.object({
  dryRun: z.boolean(),
  format: z.enum(PAIRWISE_IMPORT_FORMAT_IDS),
  sha256: z.string(),
  rows: z.number().int(),
  /** Votes read and accepted. */
  votes: z.number().int(),
  /** Votes written (a dry run: the votes a real run would write). */
  imported: z.number().int(),
  pairs: z.number().int(),
  raters: z.array(z.string()),
  aspects: z.array(z.string()),
  matchedVideos: z.number().int(),
  interpreted: z.record(z.string(), z.number().int()),
  refusedCount: z.number().int(),
  refusedByReason: z.record(z.string(), z.number().int()),
  refused: z.array(
    z.object({
      row: z.number().int(),
      reason: z.enum(REFUSAL_REASONS),
      message: z.string(),
      rater: z.string().optional(),
    }),
  ),
  pairSetId: z.string().nullable(),
  labelSetId: z.string().nullable(),
});
export type PairImportAnswer = z.infer<typeof pairImportAnswerSchema>;

/** Refusals listed one by one in an answer; the rest are counted by reason. */
export const LISTED_REFUSALS = 100;
