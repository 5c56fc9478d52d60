/**
 * Spans as CSV or JSONL: one span a row, with the columns (CSV) or fields (JSONL) `video` (a path, a file name or a
 * FrameJury video id) or `video_id`, `label`, `start_frame` and `end_frame` (inclusive frame indices from 0) or
 * `start` and `end` (seconds), optional `boxes` (`[{frame, x, y, w, h, enabled?}]` in fractions 0–1 of the frame;
 * CSV: that JSON in the cell), `task`, `annotator`, `author_kind` (what kind of author the annotator is) and `note`.
 * Frames win where a row gives both (exports write both).
 * CSV is read with the repository's RFC 4180 reader (lib/import/csv.ts); text cells the exporter guarded against
 * spreadsheet formulas (a leading `'` before `=`, `+`, `-`, `@`) are read back without the quote. Plain functions.
 */
import { z } from "zod";
import { csvRow } from "../../format/csv";
import { parseCsvTable, stripByteOrderMark } from "../../import/csv";
import { boxKeyframeSchema, MAX_BOX_KEYFRAMES, MAX_SPAN_NOTE } from "../span-validation";
import type { BoxKeyframe } from "../span-types";
import { type ExportSpan, type ParsedSpanFile, type SpanFileProblem, type SpanFileRow } from "./span-file-types";

export const SPAN_CSV_COLUMNS = [
  "video",
  "video_id",
  "task",
  "label",
  "annotator",
  "author_kind",
  "start_frame",
  "end_frame",
  "start",
  "end",
  "boxes",
  "note",
] as const;
type Column = (typeof SPAN_CSV_COLUMNS)[number];

const text = (max: number) => z.string().max(max);
const frameNumber = z.number().int().min(0);
const seconds = z.number().finite().min(0);
const boxesSchema = z.array(boxKeyframeSchema).max(MAX_BOX_KEYFRAMES);

/** One JSONL record: the same fields as the CSV's columns, numbers as numbers and `boxes` as an array. */
const jsonlRecordSchema = z
  .object({
    video: text(1000).optional(),
    video_id: text(200).optional(),
    task: text(200).optional(),
    label: text(200),
    annotator: text(200).optional(),
    author_kind: text(40).optional(),
    start_frame: frameNumber.optional(),
    end_frame: frameNumber.optional(),
    start: seconds.optional(),
    end: seconds.optional(),
    boxes: boxesSchema.optional(),
    note: text(MAX_SPAN_NOTE).optional(),
  })
  .strict();
type SpanRecordFields = z.infer<typeof jsonlRecordSchema>;

function zodMessage(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** The row's stretch and identity from its fields, or why it has none. */
function rowOf(fields: SpanRecordFields, row: number, where: string): SpanFileRow | string {
  const video = (fields.video ?? "").trim();
  const videoId = (fields.video_id ?? "").trim();
  if (!video && !videoId) return "Name the row's video (video: a path, file name or video id; or video_id).";
  const label = fields.label.trim();
  if (!label) return "The row has no label.";
  const frames = fields.start_frame !== undefined || fields.end_frame !== undefined;
  if (frames && (fields.start_frame === undefined || fields.end_frame === undefined))
    return "Give both start_frame and end_frame.";
  if (!frames && (fields.start === undefined || fields.end === undefined))
    return "Give the span's frames (start_frame, end_frame) or its seconds (start, end).";
  const task = fields.task?.trim();
  const authorKind = fields.author_kind?.trim();
  return {
    row,
    where,
    video,
    ...(videoId ? { videoId } : {}),
    label,
    ...(task ? { task } : {}),
    annotator: fields.annotator?.trim() ?? "",
    ...(authorKind ? { authorKind } : {}),
    ...(frames
      ? { startFrame: fields.start_frame, endFrame: fields.end_frame }
      : { startS: fields.start, endS: fields.end }),
    boxes: fields.boxes ?? [],
    note: fields.note ?? "",
  };
}

/** Reads spans from JSONL: one JSON object a line (blank lines skipped). */
export function parseSpanJsonl(input: string): ParsedSpanFile {
  const rows: SpanFileRow[] = [];
  const problems: SpanFileProblem[] = [];
  stripByteOrderMark(input)
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (!line.trim()) return;
      const where = `line ${index + 1}`;
      const problem = (message: string) => problems.push({ row: index + 1, where, message });
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return problem("Not JSON.");
      }
      const parsed = jsonlRecordSchema.safeParse(value);
      if (!parsed.success) return problem(zodMessage(parsed.error));
      const row = rowOf(parsed.data, index + 1, where);
      if (typeof row === "string") return problem(row);
      rows.push(row);
    });
  return { rows, problems };
}

/** A text cell as written, without the quote the exporter put before a formula-like start. */
function unguarded(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A CSV row's cells as the JSONL record's fields (numbers and boxes parsed), or why they cannot be. */
function csvFields(get: (column: Column) => string): SpanRecordFields | string {
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const column of ["video", "video_id", "task", "label", "annotator", "author_kind", "note"] as const) {
    const cell = get(column);
    if (cell !== "" || column === "label") fields[column] = unguarded(cell);
  }
  for (const column of ["start_frame", "end_frame", "start", "end"] as const) {
    const cell = get(column).trim();
    if (cell === "") continue;
    if (!NUMBER.test(cell)) return `${column}: "${cell.slice(0, 40)}" is not a number.`;
    fields[column] = Number(cell);
  }
  const boxes = get("boxes").trim();
  if (boxes) {
    try {
      fields.boxes = JSON.parse(boxes) as unknown;
    } catch {
      return "boxes: not JSON (expected [{frame, x, y, w, h, enabled?}] in fractions of the frame).";
    }
  }
  const parsed = jsonlRecordSchema.safeParse({ ...fields });
  return parsed.success ? parsed.data : zodMessage(parsed.error);
}

/** Reads spans from CSV with a header naming the columns (any order, any case; unknown columns are refused). */
export function parseSpanCsv(input: string): ParsedSpanFile {
  const table = parseCsvTable(input);
  if (!table.ok) return { rows: [], problems: [{ row: 1, where: "the file", message: table.error }] };
  const known = new Map<string, Column>(SPAN_CSV_COLUMNS.map((c) => [c, c]));
  const unknown = table.columns.filter((c) => c !== "" && !known.has(c.toLowerCase()));
  if (unknown.length)
    return {
      rows: [],
      problems: [
        {
          row: 1,
          where: "line 1",
          message: `Unknown column${unknown.length > 1 ? "s" : ""} ${unknown.map((c) => `"${c}"`).join(", ")} (columns: ${SPAN_CSV_COLUMNS.join(", ")}).`,
        },
      ],
    };
  const byName = new Map(table.columns.map((c) => [c.toLowerCase(), c]));
  if (!byName.has("label") || (!byName.has("video") && !byName.has("video_id")))
    return {
      rows: [],
      problems: [{ row: 1, where: "line 1", message: "The header needs label and video (or video_id)." }],
    };
  const rows: SpanFileRow[] = [];
  const problems: SpanFileProblem[] = [];
  for (const record of table.rows) {
    const where = `line ${record.line}`;
    const get = (column: Column) => {
      const header = byName.get(column);
      return header === undefined ? "" : (record.values.get(header) ?? "");
    };
    const fields = csvFields(get);
    const row = typeof fields === "string" ? fields : rowOf(fields, record.line, where);
    if (typeof row === "string") problems.push({ row: record.line, where, message: row });
    else rows.push(row);
  }
  return { rows, problems };
}

/** Whether a span table is JSONL: its file name says so or its first character is `{`; else it is CSV. */
export function spanTableIsJsonl(input: string, fileName: string): boolean {
  return /\.(jsonl|ndjson|json)$/i.test(fileName) || stripByteOrderMark(input).trimStart().startsWith("{");
}

function boxesOut(boxes: readonly BoxKeyframe[]) {
  return boxes.map((b) => ({ frame: b.frame, x: b.x, y: b.y, w: b.w, h: b.h, enabled: b.enabled }));
}

/** The spans as CSV: the header, then one row each (seconds at full precision, so they name the same frames). */
export function spansCsv(spans: Iterable<ExportSpan>): string {
  let out = csvRow([...SPAN_CSV_COLUMNS]);
  for (const s of spans)
    out += csvRow([
      s.videoPath,
      s.videoId,
      s.task,
      s.label,
      s.annotator,
      s.authorKind,
      s.startFrame,
      s.endFrame,
      s.startS,
      s.endS,
      s.boxes.length ? JSON.stringify(boxesOut(s.boxes)) : "",
      s.note,
    ]);
  return out;
}

/** The spans as JSONL, one object a line with the CSV's fields. */
export function spansJsonl(spans: Iterable<ExportSpan>): string {
  let out = "";
  for (const s of spans)
    out += `${JSON.stringify({
      video: s.videoPath,
      video_id: s.videoId,
      task: s.task,
      label: s.label,
      annotator: s.annotator,
      author_kind: s.authorKind,
      start_frame: s.startFrame,
      end_frame: s.endFrame,
      start: s.startS,
      end: s.endS,
      boxes: boxesOut(s.boxes),
      note: s.note,
    })}\n`;
  return out;
}
