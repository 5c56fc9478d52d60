/**
 * The span file formats, one table: each format's id (the same in the label-set import's `format` field and the span
 * export's `format` query), its name in the forms, the files its picker accepts, how it is read and how it is
 * written. The import form, the import's validation, the label-set route, the importer, the export route, the export
 * and its links all read this table; a format is added here and nowhere else. Plain data and pure functions: the
 * browser imports it.
 */
import { ValidationError } from "../../errors";
import {
  type LabelStudioLabel,
  labelStudioSpanConfig,
  labelStudioSpanTasks,
  type LabelStudioVideo,
  parseLabelStudioSpans,
} from "./label-studio-spans";
import type { ExportSpan, ParsedSpanFile, SpanFileRow } from "./span-file-types";
import { parseSpanCsv, parseSpanJsonl, spanTableIsJsonl, spansCsv, spansJsonl } from "./span-table";

/** How a format is read: its parser, and how it names a row's text fields (for the problems that name them). */
export interface SpanFileReader {
  parse(text: string): ParsedSpanFile;
  textFields: readonly (readonly [keyof SpanFileRow, string])[];
  /** Each non-empty line is one row: the lines are counted against the row limit before any is parsed. */
  rowPerLine?: true;
}

/** What a writer may need beside the spans; loaded only when it asks (the project's frame times and labels). */
export interface SpanExportSources {
  videos(): Promise<LabelStudioVideo[]>;
  labels(): Promise<LabelStudioLabel[]>;
}

/** How a format is written: the file's body, its media type and the name exportFileName gives it. */
export interface SpanFileWriter {
  /** What the file name says it holds (exportFileName's `what`) and its extension. */
  what: string;
  extension: string;
  mediaType: string;
  body(spans: readonly ExportSpan[], sources: SpanExportSources): string | Promise<string>;
}

export interface SpanFileFormat {
  id: string;
  /** Its name in the import form's list and on the export's link. */
  label: string;
  /** The import form's file picker (`accept`), for a format it reads. */
  accept?: string;
  read?: SpanFileReader;
  write?: SpanFileWriter;
}

const SPAN_TABLE_TEXT_FIELDS = [
  ["video", "video"],
  ["videoId", "video_id"],
  ["label", "label"],
  ["task", "task"],
  ["annotator", "annotator"],
  ["authorKind", "author_kind"],
  ["note", "note"],
] as const;

/** The formats, in the order the import form and the export links offer them. */
export const SPAN_FILE_FORMATS = [
  {
    id: "csv",
    label: "Spans CSV",
    accept: ".csv",
    read: { parse: parseSpanCsv, textFields: SPAN_TABLE_TEXT_FIELDS },
    write: { what: "spans", extension: "csv", mediaType: "text/csv", body: spansCsv },
  },
  {
    id: "jsonl",
    label: "Spans JSONL",
    accept: ".jsonl,.ndjson",
    read: { parse: parseSpanJsonl, textFields: SPAN_TABLE_TEXT_FIELDS, rowPerLine: true },
    write: { what: "spans", extension: "jsonl", mediaType: "application/x-ndjson", body: spansJsonl },
  },
  {
    id: "label-studio",
    label: "Label Studio tasks (JSON)",
    accept: ".json",
    // Its spans are counted, result by result, before they are built (parseLabelStudioSpans).
    read: {
      parse: parseLabelStudioSpans,
      textFields: [
        ["video", "data.path or data.video"],
        ["videoId", "data.framejury_video_id"],
        ["label", "label"],
        ["annotator", "annotator"],
        ["note", "meta.text"],
      ],
    },
    write: {
      what: "spans-label-studio-tasks",
      extension: "json",
      mediaType: "application/json",
      body: async (spans, sources) => JSON.stringify(labelStudioSpanTasks(await sources.videos(), spans), null, 2),
    },
  },
  {
    id: "label-studio-config",
    label: "Label Studio config for spans (XML)",
    write: {
      what: "spans-label-studio-config",
      extension: "xml",
      mediaType: "application/xml",
      body: async (_spans, sources) => labelStudioSpanConfig(await sources.labels()),
    },
  },
] as const satisfies readonly SpanFileFormat[];

type TableFormat = (typeof SPAN_FILE_FORMATS)[number];
export type SpanReadFormat = Extract<TableFormat, { read: SpanFileReader }>;
export type SpanWriteFormat = Extract<TableFormat, { write: SpanFileWriter }>;
export type SpanReadFormatId = SpanReadFormat["id"];

const isReadable = (format: TableFormat): format is SpanReadFormat => "read" in format;
const isWritable = (format: TableFormat): format is SpanWriteFormat => "write" in format;

/** The formats the import reads, in the form's order. */
export const SPAN_READ_FORMATS: readonly SpanReadFormat[] = SPAN_FILE_FORMATS.filter(isReadable);
/** The formats the export writes, in the links' order. */
export const SPAN_WRITE_FORMATS: readonly SpanWriteFormat[] = SPAN_FILE_FORMATS.filter(isWritable);

type Ids<Id extends string> = readonly [Id, ...Id[]];
const idsOf = <F extends { id: string }>(formats: readonly F[]) =>
  formats.map((format) => format.id) as unknown as Ids<F["id"]>;

export const SPAN_READ_FORMAT_IDS = idsOf(SPAN_READ_FORMATS);
export const SPAN_WRITE_FORMAT_IDS = idsOf(SPAN_WRITE_FORMATS);

/**
 * Older ids the import still reads, because the API reference and the Python client name them: `spans` is the span
 * table (JSONL when the file's name or first character says so, else CSV) and `label_studio_spans` is `label-studio`.
 * A label set imported under one is stored under the format's own id, so a format has one id in the data.
 */
const ALIASES = new Map<string, (file: { fileName: string; text: string }) => SpanReadFormatId>([
  ["spans", (file) => (spanTableIsJsonl(file.text, file.fileName) ? "jsonl" : "csv")],
  ["label_studio_spans", () => "label-studio"],
]);

export const SPAN_FORMAT_ALIASES = [...ALIASES.keys()] as unknown as Ids<"spans" | "label_studio_spans">;

/** Every id the import's `format` field takes for a span file: the formats' own, then the older aliases. */
export type SpanImportFormatId = SpanReadFormatId | (typeof SPAN_FORMAT_ALIASES)[number];
export const SPAN_IMPORT_FORMAT_IDS: Ids<SpanImportFormatId> = [...SPAN_READ_FORMAT_IDS, ...SPAN_FORMAT_ALIASES];

const quoted = (ids: readonly string[]) => ids.map((id) => `"${id}"`).join(", ");

/** The span file formats the label-set import's `format` field takes: their own ids, then the aliases. */
export const SPAN_IMPORT_FORMATS = { ids: SPAN_READ_FORMAT_IDS, aliases: SPAN_FORMAT_ALIASES } as const;

/** Whether a label-set import's `format` names a span file format (its own id or an alias). */
export function isSpanImportFormatId(id: string): id is SpanImportFormatId {
  return (SPAN_IMPORT_FORMAT_IDS as readonly string[]).includes(id);
}

/** Whether an import's `format` is known at all (a 400 naming the ids it reads when not), before the file is read. */
export function requireSpanImportFormatId(id: string): SpanImportFormatId {
  if (isSpanImportFormatId(id)) return id;
  throw new ValidationError(`"${id}" is not a span file format this import reads: ${quoted(SPAN_READ_FORMAT_IDS)}.`);
}

/** The format an import's `format` names, an alias resolved with the file it came with. */
export function spanReadFormat(id: SpanImportFormatId, file: { fileName: string; text: string }): SpanReadFormat {
  const own = ALIASES.get(id)?.(file) ?? id;
  return SPAN_READ_FORMATS.find((format) => format.id === own)!;
}

/** The format an export's `format` names; a 400 naming the ids it writes when it names none. */
export function spanWriteFormat(id: string): SpanWriteFormat {
  const found = SPAN_WRITE_FORMATS.find((format) => format.id === id);
  if (found) return found;
  throw new ValidationError(`"${id}" is not a span file format this export writes: ${quoted(SPAN_WRITE_FORMAT_IDS)}.`);
}
