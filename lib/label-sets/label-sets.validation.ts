import { z } from "zod";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import type { LabelSetFormatDeclaration } from "../task-modules/label-set-format";

/** Label-set files are read whole into memory (a published label sheet is a few kB); an .xlsx then meets xlsx-limits.ts's limits. */
export const MAX_LABEL_SET_BYTES = 20 * 1024 * 1024;

export const labelSetIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Not a label set id.");

/**
 * The core's label file formats of judgments: VBench / VBench-2.0 evaluation results (JSON), CSV or JSONL with video,
 * annotator, target, value, item. The span file formats come from their table
 * (lib/spans/span-files/span-file-formats.ts) through their importer (labelSetImportFields): spans import label sets,
 * so this folder cannot import them.
 */
export const CORE_LABEL_SET_FORMATS = ["vbench", "generic"] as const;

/** The span file formats an import reads, by their own ids and the older aliases still read (`SPAN_IMPORT_FORMATS`). */
export interface SpanImportFormats {
  ids: readonly string[];
  aliases: readonly string[];
}

/** The catalogue's tasks' own label file formats (their declarations' `labelSetFormats`). */
export function taskLabelSetFormatDeclarations(catalogue: DeclarationCatalogue): LabelSetFormatDeclaration[] {
  return catalogue.folders.flatMap((folder) => folder.labelSetFormats ?? []);
}

const columnName = z.string().trim().min(1, "Name the column.").max(200, "A column name is at most 200 characters.");

/**
 * A wide generic file's column map: the video column, an optional annotator and item column, and which
 * target (a declared target's id, e.g. a rubric criterion's `r3_quality`) each other mapped column gives.
 * The targets are checked against the declarations when the file is read.
 */
export const genericColumnMapSchema = z
  .object({
    video: columnName,
    annotator: columnName.optional(),
    item: columnName.optional(),
    targets: z
      .record(columnName, z.string().trim().min(1, "Name the column's target.").max(200))
      .refine((targets) => Object.keys(targets).length > 0, "Map at least one column to a target.")
      .refine((targets) => Object.keys(targets).length <= 200, "At most 200 mapped columns."),
  })
  .strict();

/** The `columns` field of a multipart import: the column map as JSON text. */
const columnsField = z
  .string()
  .max(50_000)
  .transform((text, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({
        code: "custom",
        message: "columns: not JSON (expected {video, annotator?, item?, targets: {column: target}}).",
      });
      return z.NEVER;
    }
    // zod leaves a "__proto__" key out of a record: a column of that name is refused by name rather than lost.
    const targets =
      typeof parsed === "object" && parsed !== null ? (parsed as { targets?: unknown }).targets : undefined;
    if (typeof targets === "object" && targets !== null && Object.hasOwn(targets, "__proto__")) {
      ctx.addIssue({ code: "custom", message: 'columns: a column named "__proto__" cannot be mapped; rename it.' });
      return z.NEVER;
    }
    return parsed;
  })
  .pipe(genericColumnMapSchema);

const codes = (ids: readonly string[]) => ids.map((id) => `\`${id}\``).join(", ");

function formatField(catalogue: DeclarationCatalogue, spans: SpanImportFormats) {
  const tasks = taskLabelSetFormatDeclarations(catalogue);
  // The tasks' formats first, as the import form offers them.
  const [first, ...rest] = [
    ...tasks.map((format) => format.id),
    ...CORE_LABEL_SET_FORMATS,
    ...spans.ids,
    ...spans.aliases,
  ];
  const formats = z.enum([first!, ...rest]).meta({
    description: `A task's own format, ${codes(CORE_LABEL_SET_FORMATS)}, or a span file format (${codes(spans.ids)}); ${codes(spans.aliases)}: older names of span file formats, still read.`,
  });
  const byDefault = tasks.find((format) => format.isDefault)?.id;
  return byDefault === undefined ? formats : formats.default(byDefault);
}

/**
 * The multipart fields of an import (the file is the part named `file`); `format` is a task's own format
 * (its declarations), "vbench", "generic" or a span file format (`spans`: the table's, handed in by the caller). Kept
 * with the catalogue: `spans` is the one table's, the same for every caller.
 */
export function labelSetImportFieldsSchema(catalogue: DeclarationCatalogue, spans: SpanImportFormats) {
  return catalogue.derived("label-sets.importFields", () => buildImportFieldsSchema(catalogue, spans));
}

function buildImportFieldsSchema(catalogue: DeclarationCatalogue, spans: SpanImportFormats) {
  const isSpanFormat = (format: string) => spans.ids.includes(format) || spans.aliases.includes(format);
  return z
    .object({
      format: formatField(catalogue, spans),
      name: z.string().trim().min(1, "Name the label set.").max(200),
      citation: z.string().trim().max(2000).default(""),
      /**
       * For a task format that matches videos: "file_name": its file-name column names the project's videos; "column":
       * `mappingColumn` does (a path or file name).
       */
      match: z.enum(["file_name", "column"]).default("file_name"),
      mappingColumn: z.string().trim().max(200).optional(),
      /** With format "generic": a wide file's column map (JSON, genericColumnMapSchema); absent: the long format. */
      columns: columnsField.optional(),
      /** With a span format: the task of the rows that name none (its labels; "project": the project's own list). */
      task: z.string().trim().min(1).max(200).optional(),
      /** Anything but "false" is a dry run: nothing is written unless asked explicitly. */
      dryRun: z.enum(["true", "false"]).default("true"),
    })
    .strict()
    .refine((f) => f.match !== "column" || !!f.mappingColumn, {
      message: 'With match "column", name the mappingColumn.',
      path: ["mappingColumn"],
    })
    .refine((f) => f.columns === undefined || f.format === "generic", {
      message: "A column map (columns) is for the generic format only.",
      path: ["columns"],
    })
    .refine((f) => f.task === undefined || isSpanFormat(f.format), {
      message: `A task is for the span file formats (${[...spans.ids, ...spans.aliases].join(", ")}) only.`,
      path: ["task"],
    });
}

/** GET /projects/{projectId}/label-sets: the project's label sets, newest first, with what each holds. */
export const labelSetListAnswerSchema = z.object({
  labelSets: z.array(
    z.object({
      id: z.string(),
      projectId: z.string(),
      name: z.string(),
      format: z.string().describe("The importer that read the file: a label-set format's id or a span file format's."),
      fileName: z.string(),
      sha256: z.string(),
      citation: z.string(),
      importedById: z.string(),
      createdAt: z.string().describe("ISO 8601."),
      annotators: z.array(z.string()).describe("The annotator columns it holds ([] for one: the label set itself)."),
      reviewerIds: z.array(z.string()).describe("The reviewer ids its labels count under in agreement."),
      importedBy: z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() }),
      judgments: z.number().int(),
      spans: z.number().int(),
    }),
  ),
});
export type LabelSetListAnswer = z.infer<typeof labelSetListAnswerSchema>;

/** DELETE /projects/{projectId}/label-sets/{labelSetId}: how many labels went with it. */
export const labelSetDeletedAnswerSchema = z.object({ deletedJudgments: z.number().int() });
export type LabelSetDeletedAnswer = z.infer<typeof labelSetDeletedAnswerSchema>;
