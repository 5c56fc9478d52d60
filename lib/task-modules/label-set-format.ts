/**
 * A task's own label file format (say, a benchmark's published label sheet): the task's declarations
 * describe it for the import form and the upload's `format` field (LabelSetFormatDeclaration, browser-safe),
 * and its module lists the importer (`labelSetFormats`), which the label-set import hands every upload of
 * its format id. The formats every task shares (generic CSV/JSONL, VBench results) are the core's own
 * (lib/label-sets/label-sets.ts). Types only: the browser's import form reads the declarations.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";

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

/** How the import form and the upload's `format` field know a task's label file format (TaskFolderDeclarations.labelSetFormats). */
export interface LabelSetFormatDeclaration {
  /** The `format` an upload names (stored as the LabelSet's `format`). */
  id: string;
  /** The format in the form's Format list ("… sheet (.xlsx)"). */
  label: string;
  /** The format in the form's introduction ("…'s label sheet (.xlsx)"). */
  description: string;
  /** The file picker's label ("Label sheet") and the types it accepts (".xlsx"). */
  fileLabel: string;
  accept: string;
  /** The label set's name the form suggests. */
  defaultName: string;
  /** Its rows name the project's videos by their file names (this column) or by a mapping column the uploader names. */
  matchVideos?: { fileNameColumn: string };
  /** The format an upload that names none has (at most one task declares one; none: `format` is required). */
  isDefault?: boolean;
}

export interface LabelSetFormat {
  /** The `format` an upload names (a LabelSet's `format`). */
  id: string;
  /** Reads the file and plans the label set; imports it into `access.projectId` unless `dryRun`. */
  importLabels(
    prisma: PrismaClient,
    access: ProjectAccess<"videos.import">,
    input: LabelSetImportInput,
  ): Promise<LabelSetImportResult>;
}
