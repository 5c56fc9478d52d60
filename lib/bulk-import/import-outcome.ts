// What became of each file of a bulk import (lib/bulk-import/import-folder.ts), and the summary's reason for a
// refusal or an extraction error.
import { ExtractionError, type ExtractionErrorCode } from "../browser-extraction/types";
import { refusalOf } from "./import-target";

/** Why a file was not imported, as the summary groups them. */
export type FailureReason =
  "corrupt" | "not_a_video" | "too_big" | "odd_name" | "audio_only" | "unsupported_codec" | "refused" | "error";

export type FileStatus = "imported" | "duplicate" | "failed" | "skipped" | "interrupted";

export interface FileOutcome {
  relativePath: string;
  kind: "video" | "prompt-list" | "metadata" | "other";
  status: FileStatus;
  reason?: FailureReason;
  message: string;
  videoId?: string;
  /** The video was stored by an earlier, interrupted run; this run extracted its frames. */
  resumed?: boolean;
  /** The stored video has no prompt (its name is not `<prompt>-<index>` and nothing named one). */
  noPrompt?: boolean;
  keyFrames?: number;
  frames?: number;
}

const EXTRACTION_REASONS: Partial<Record<ExtractionErrorCode, FailureReason>> = {
  corrupt: "corrupt",
  not_a_video: "not_a_video",
  audio_only: "audio_only",
  unsupported_codec: "unsupported_codec",
};

/** The summary's reason for a refusal or an extraction error. */
export function reasonOf(error: unknown): FailureReason {
  if (error instanceof ExtractionError) return EXTRACTION_REASONS[error.code] ?? "error";
  const refusal = refusalOf(error);
  if (!refusal) return "error";
  if (refusal.status === 413) return "too_big";
  if (refusal.code === "empty" || refusal.code === "corrupt") return "corrupt";
  if (refusal.code === "not_a_video" || refusal.code === "audio_only") return refusal.code;
  return "refused";
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
