import { z } from "zod";
import { memoByTaskRegistry, TASK_FOLDERS } from "../tasks/registry";
import type { LabelSetFormatDeclaration } from "./label-set-format";

/** Label-set files are read whole into memory (a published label sheet is a few kB); an .xlsx then meets xlsx-limits.ts's limits. */
export const MAX_LABEL_SET_BYTES = 20 * 1024 * 1024;

export const labelSetIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Not a label set id.");

/** The core's label file formats: VBench / VBench-2.0 evaluation results (JSON), and CSV or JSONL with video, annotator, target, value, item. */
export const CORE_LABEL_SET_FORMATS = ["vbench", "generic"] as const;

/** The registered tasks' own label file formats (their declarations' `labelSetFormats`), read at call time. */
export function taskLabelSetFormatDeclarations(): LabelSetFormatDeclaration[] {
  return TASK_FOLDERS.flatMap((folder) => folder.labelSetFormats ?? []);
}

function formatField() {
  const tasks = taskLabelSetFormatDeclarations();
  // The tasks' formats first, as the import form offers them.
  const [first, ...rest] = [...tasks.map((format) => format.id), ...CORE_LABEL_SET_FORMATS];
  const formats = z.enum([first!, ...rest]);
  const byDefault = tasks.find((format) => format.isDefault)?.id;
  return byDefault === undefined ? formats : formats.default(byDefault);
}

/**
 * The multipart fields of an import (the file is the part named `file`); `format` is a task's own format
 * (its declarations), "vbench" or "generic". The same object while the registry is unchanged.
 */
export const labelSetImportFieldsSchema = memoByTaskRegistry(() =>
  z
    .object({
      format: formatField(),
      name: z.string().trim().min(1, "Name the label set.").max(200),
      citation: z.string().trim().max(2000).default(""),
      /** For a task format that matches videos: "file_name": its file-name column names the project's videos; "column": `mappingColumn` does (a path or file name). */
      match: z.enum(["file_name", "column"]).default("file_name"),
      mappingColumn: z.string().trim().max(200).optional(),
      /** Anything but "false" is a dry run: nothing is written unless asked explicitly. */
      dryRun: z.enum(["true", "false"]).default("true"),
    })
    .strict()
    .refine((f) => f.match !== "column" || !!f.mappingColumn, { message: 'With match "column", name the mappingColumn.', path: ["mappingColumn"] }),
);
