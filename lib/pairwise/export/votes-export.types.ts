import { z } from "zod";
import { aspectIdSchema } from "../aspects";
import type { Verdict } from "../verdicts";

export const VOTE_EXPORT_FORMATS = ["csv", "jsonl", "arena"] as const;
export type VoteExportFormat = (typeof VOTE_EXPORT_FORMATS)[number];

export const voteExportQuerySchema = z
  .object({ format: z.enum(VOTE_EXPORT_FORMATS).default("csv"), aspect: aspectIdSchema.optional() })
  .strict();

/** One exported vote: the generic import's columns (video_a, video_b, verdict, aspect, rater, …) and its provenance. */
export interface VoteExportRow {
  pair_key: string;
  prompt: string;
  generator_a: string;
  generator_b: string;
  video_a: string;
  video_b: string;
  sha256_a: string;
  sha256_b: string;
  aspect: string;
  rater: string;
  /** "reviewer" | "judge" | "label_set" | "gold". */
  rater_kind: string;
  verdict: Verdict;
  strength: number;
  updated_at: string;
  /** Seconds since 1970, as arena battle files give a vote's time. */
  tstamp: number;
}

export const VOTE_EXPORT_COLUMNS = [
  "pair_key",
  "prompt",
  "generator_a",
  "generator_b",
  "video_a",
  "video_b",
  "sha256_a",
  "sha256_b",
  "aspect",
  "rater",
  "rater_kind",
  "verdict",
  "strength",
  "updated_at",
] as const satisfies readonly (keyof VoteExportRow)[];
