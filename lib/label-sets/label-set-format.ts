/**
 * A task's own label file format (T2VHaluBench's sheet for hallucination): the task module lists it
 * (`labelSetFormats`), and the label-set import hands it every upload of its format id. The formats
 * every task shares (generic CSV/JSONL, VBench results) are the core's own (label-sets.ts).
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";

/** One cell of a label file read other than as written, or one row skipped, with where it is. */
export interface SheetIssue {
  /** The sheet's row number (1 is the header). */
  row: number;
  column: string;
  /** The cell as written. */
  cell: string;
  /** "interpreted": read other than as written; "skipped": not imported. */
  action: "interpreted" | "skipped";
  message: string;
}

/** How a label file's rows name the project's videos: by their file names, or by a column (a path or file name). */
export type VideoMatch = { by: "file_name" } | { by: "column"; column: string };

/** What an upload of a label file gives a format's importer. */
export interface LabelSetImportInput {
  file: Uint8Array;
  fileName: string;
  name: string;
  citation?: string;
  match: VideoMatch;
  dryRun: boolean;
}

/** A label-set import's answer: the plan (what was read and what was skipped) and, unless a dry run, the stored set. */
export interface LabelSetImportResult {
  dryRun: boolean;
  plan: unknown;
  labelSet: unknown;
}

export interface LabelSetFormat {
  /** The `format` an upload names (a LabelSet's `format`). */
  id: string;
  /** Reads the file and plans the label set; imports it unless `dryRun` (checks the actor's permission itself). */
  importLabels(prisma: PrismaClient, actor: Actor, projectId: string, input: LabelSetImportInput): Promise<LabelSetImportResult>;
}
