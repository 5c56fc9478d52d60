import { z } from "zod";

/** Label-set files are read whole into memory (T2VHaluBench's sheet is a few kB); an .xlsx then meets xlsx-limits.ts's limits. */
export const MAX_LABEL_SET_BYTES = 20 * 1024 * 1024;

export const labelSetIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Not a label set id.");

/** The multipart fields of an import (the file is the part named `file`). */
export const labelSetImportFieldsSchema = z
  .object({
    /** "t2vhalubench": the .xlsx label sheet; "vbench": VBench / VBench-2.0 evaluation results (JSON); "generic": CSV or JSONL with video, annotator, target, value, item. */
    format: z.enum(["t2vhalubench", "vbench", "generic"]).default("t2vhalubench"),
    name: z.string().trim().min(1, "Name the label set.").max(200),
    citation: z.string().trim().max(2000).default(""),
    /** "file_name": the sheet's Example column names the project's videos; "column": `mappingColumn` does (a path or file name). */
    match: z.enum(["file_name", "column"]).default("file_name"),
    mappingColumn: z.string().trim().max(200).optional(),
    /** Anything but "false" is a dry run: nothing is written unless asked explicitly. */
    dryRun: z.enum(["true", "false"]).default("true"),
  })
  .strict()
  .refine((f) => f.match !== "column" || !!f.mappingColumn, { message: 'With match "column", name the mappingColumn.', path: ["mappingColumn"] });
