import { findColumn, parseCsvTable, stripByteOrderMark } from "./csv";
import { splitDimensionList } from "./prompt-lists";

export type MetadataValue = string | number | boolean | null;

/**
 * What a metadata file says about one video. Shaped like the API's explicit video metadata so it
 * can be passed on as is: only the fields the row gives are present.
 */
export interface FileMetadata {
  prompt?: string;
  model?: string;
  /** Kept as text from CSV: seeds are often 64-bit and would lose digits as a JS number. */
  seed?: string | number;
  dimension?: string[];
  sampleIndex?: number;
  extra: Record<string, MetadataValue>;
}

export type MetadataFileFormat = "csv" | "jsonl" | "json";

export type MetadataFileResult =
  | { ok: true; format: MetadataFileFormat; rowCount: number; byPath: Map<string, FileMetadata> }
  | { ok: false; error: string };

/** Column names that identify the video, most specific first. */
export const FILE_COLUMNS = ["path", "file", "file_name", "filename"] as const;
const PROMPT_COLUMN = "prompt";
const MODEL_COLUMN = "model";
const SEED_COLUMN = "seed";
const DIMENSION_COLUMNS = ["dimension", "dimensions"] as const;
const SAMPLE_INDEX_COLUMNS = ["sample_index", "sampleindex"] as const;

type RowResult = { ok: true; path: string; metadata: FileMetadata } | { ok: false; error: string };

interface MetadataRow {
  /** Where the row is, for messages: "line 3" (CSV, JSON Lines) or "item 3" (JSON array). */
  where: string;
  /** Column name as written (trimmed) → value. */
  fields: Map<string, unknown>;
}

/** Looks columns up ignoring case, so `File_Name` and `Seed` work, while `extra` keeps names as written. */
class RowFields {
  private readonly byLowerName = new Map<string, string>();

  constructor(readonly fields: ReadonlyMap<string, unknown>) {
    for (const name of fields.keys()) this.byLowerName.set(name.toLowerCase(), name);
  }

  /** The first of `names` that holds a non-blank value. */
  firstPresent(names: readonly string[]): { name: string; value: unknown } | null {
    for (const name of names) {
      const written = this.byLowerName.get(name);
      if (written !== undefined && !isBlank(this.fields.get(written)))
        return { name: written, value: this.fields.get(written) };
    }
    return null;
  }

  get(name: string): unknown {
    const written = this.byLowerName.get(name);
    return written === undefined ? undefined : this.fields.get(written);
  }
}

/** Keys are compared as `/`-separated NFC text, since macOS reports names in NFD and Windows uses `\`. */
export function metadataPathKey(path: string): string {
  return path
    .normalize("NFC")
    .replaceAll("\\", "/")
    .replace(/^(\.\/)+/, "")
    .replace(/^\/+/, "");
}

function baseName(pathKey: string): string {
  return pathKey.slice(pathKey.lastIndexOf("/") + 1);
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

function extraValue(value: unknown): MetadataValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value === "" ? null : value;
  if (typeof value === "number" || typeof value === "boolean") return value;
  return JSON.stringify(value);
}

function readText(
  value: unknown,
  column: string,
  where: string,
): { ok: true; text: string | undefined } | { ok: false; error: string } {
  if (isBlank(value)) return { ok: true, text: undefined };
  if (typeof value !== "string") return { ok: false, error: `${where}: "${column}" must be text` };
  return { ok: true, text: value.trim() };
}

function readSampleIndex(
  value: unknown,
  column: string,
  where: string,
): { ok: true; index: number | undefined } | { ok: false; error: string } {
  if (isBlank(value)) return { ok: true, index: undefined };
  const index = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0) {
    return { ok: false, error: `${where}: "${column}" must be a whole number ≥ 0` };
  }
  return { ok: true, index };
}

const KNOWN_COLUMNS = new Set<string>([
  ...FILE_COLUMNS,
  PROMPT_COLUMN,
  MODEL_COLUMN,
  SEED_COLUMN,
  ...DIMENSION_COLUMNS,
  ...SAMPLE_INDEX_COLUMNS,
]);

function readRow(row: MetadataRow): RowResult {
  const { where } = row;
  const fields = new RowFields(row.fields);
  const file = fields.firstPresent(FILE_COLUMNS);
  if (!file)
    return { ok: false, error: `${where}: no file name (give a "file", "file_name", "filename" or "path" value)` };
  if (typeof file.value !== "string") return { ok: false, error: `${where}: "${file.name}" must be text` };

  const prompt = readText(fields.get(PROMPT_COLUMN), PROMPT_COLUMN, where);
  if (!prompt.ok) return prompt;
  const model = readText(fields.get(MODEL_COLUMN), MODEL_COLUMN, where);
  if (!model.ok) return model;

  const metadata: FileMetadata = { extra: {} };
  if (prompt.text !== undefined) metadata.prompt = prompt.text;
  if (model.text !== undefined) metadata.model = model.text;

  const seed = fields.get(SEED_COLUMN);
  if (!isBlank(seed)) {
    if (typeof seed === "string") metadata.seed = seed.trim();
    else if (typeof seed === "number") metadata.seed = seed;
    else return { ok: false, error: `${where}: "seed" must be a number or text` };
  }

  const dimension = fields.firstPresent(DIMENSION_COLUMNS);
  if (dimension) {
    const { value } = dimension;
    if (typeof value === "string") metadata.dimension = splitDimensionList(value);
    else if (Array.isArray(value) && value.every((item): item is string => typeof item === "string")) {
      metadata.dimension = splitDimensionList(value.join(";"));
    } else return { ok: false, error: `${where}: "${dimension.name}" must be text or a list of text` };
  }

  const sampleIndexField = fields.firstPresent(SAMPLE_INDEX_COLUMNS);
  if (sampleIndexField) {
    const sampleIndex = readSampleIndex(sampleIndexField.value, sampleIndexField.name, where);
    if (!sampleIndex.ok) return sampleIndex;
    metadata.sampleIndex = sampleIndex.index;
  }

  // A key JSON bodies cannot carry (the API's parser drops it, as it must): refused here rather than lost on the way.
  const reserved = [...row.fields.keys()].find((column) => column === "__proto__");
  if (reserved !== undefined) return { ok: false, error: `${where}: "${reserved}" cannot name a column; rename it` };
  // Other column names are the file's text (`constructor`, `toString`…): each becomes an own key, never read from the prototype.
  metadata.extra = Object.fromEntries(
    [...row.fields]
      .filter(([column]) => !KNOWN_COLUMNS.has(column.toLowerCase()))
      .map(([column, value]) => [column, extraValue(value)]),
  );
  return { ok: true, path: file.value.trim(), metadata };
}

function csvRows(text: string): { ok: true; rows: MetadataRow[] } | { ok: false; error: string } {
  const table = parseCsvTable(text);
  if (!table.ok) return table;
  if (!findColumn(table.columns, FILE_COLUMNS)) {
    return { ok: false, error: `line 1: the header needs a "file", "file_name", "filename" or "path" column` };
  }
  if (table.columns.includes("__proto__"))
    return { ok: false, error: `line 1: "__proto__" cannot name a column; rename it` };
  return {
    ok: true,
    rows: table.rows.map((row) => ({ where: `line ${row.line}`, fields: new Map<string, unknown>(row.values) })),
  };
}

function objectFields(value: unknown): Map<string, unknown> | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  return new Map(Object.entries(value).map(([key, field]) => [key.trim(), field]));
}

function jsonLineRows(text: string): { ok: true; rows: MetadataRow[] } | { ok: false; error: string } {
  const rows: MetadataRow[] = [];
  for (const [index, lineText] of text.split(/\r\n|\n|\r/).entries()) {
    if (lineText.trim() === "") continue;
    const where = `line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch (error) {
      return { ok: false, error: `${where}: invalid JSON (${error instanceof Error ? error.message : String(error)})` };
    }
    const fields = objectFields(value);
    if (!fields) return { ok: false, error: `${where}: expected a JSON object` };
    rows.push({ where, fields });
  }
  return { ok: true, rows };
}

function jsonArrayRows(text: string): { ok: true; rows: MetadataRow[] } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `invalid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!Array.isArray(value)) return { ok: false, error: "expected a JSON array of objects, one per video" };
  const rows: MetadataRow[] = [];
  for (const [index, item] of value.entries()) {
    const fields = objectFields(item);
    // A pretty-printed array has no one line per row, so rows are named by item number.
    const where = `item ${index + 1}`;
    if (!fields) return { ok: false, error: `${where}: expected a JSON object` };
    rows.push({ where, fields });
  }
  return { ok: true, rows };
}

/**
 * Per-video metadata from a CSV, JSON Lines or JSON array file. Each row names its video by
 * `path`, `file`, `file_name` or `filename` and may give `prompt`, `model`, `seed`, `dimension`
 * (several separated by `;` or `|`) and `sample_index`; other columns go to `extra` (empty CSV
 * cells as null). The map holds each row under its path as written (normalised by
 * `metadataPathKey`); use `findMetadata` to look a video up. Errors name the line (or JSON array
 * item) but not the file, which the caller already knows.
 */
export function parseMetadataFile(fileName: string, content: string): MetadataFileResult {
  const text = stripByteOrderMark(content);
  const lower = fileName.toLowerCase();
  const format: MetadataFileFormat | null = lower.endsWith(".csv")
    ? "csv"
    : lower.endsWith(".jsonl") || lower.endsWith(".ndjson")
      ? "jsonl"
      : lower.endsWith(".json")
        ? "json"
        : null;
  if (!format) return { ok: false, error: "unsupported metadata format; use .csv, .jsonl or .json" };
  const rows = format === "csv" ? csvRows(text) : format === "jsonl" ? jsonLineRows(text) : jsonArrayRows(text);
  if (!rows.ok) return rows;

  const byPath = new Map<string, FileMetadata>();
  const whereByPath = new Map<string, string>();
  for (const row of rows.rows) {
    const read = readRow(row);
    if (!read.ok) return read;
    const key = metadataPathKey(read.path);
    const firstWhere = whereByPath.get(key);
    if (firstWhere !== undefined)
      return { ok: false, error: `${row.where}: "${key}" is already described at ${firstWhere}` };
    whereByPath.set(key, row.where);
    byPath.set(key, read.metadata);
  }
  return { ok: true, format, rowCount: whereByPath.size, byPath };
}

/**
 * How many of the videos being matched have each file name: a row that gives a bare file name names a
 * video only when exactly one of them has it (VBench layouts repeat every name once per generator).
 */
export function countFileNames(relativePaths: Iterable<string>): ReadonlyMap<string, number> {
  const counts = new Map<string, number>();
  for (const path of relativePaths) {
    const name = baseName(metadataPathKey(path));
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/**
 * The metadata row for a video's relative path. A row with a path (`modelA/Mechanics/x-0.mp4`) names that
 * path only: the video's path ends with it (the browser prefixes the chosen folder, the file may not), and
 * the longest such row wins. A row with a bare file name names the video with that name when `fileNames`
 * (from `countFileNames` over every video being matched) says exactly one video has it.
 */
export function findMetadata(
  byPath: ReadonlyMap<string, FileMetadata>,
  relativePath: string,
  fileNames: ReadonlyMap<string, number>,
): FileMetadata | null {
  const segments = metadataPathKey(relativePath).split("/");
  for (let start = 0; start < segments.length - 1; start += 1) {
    const found = byPath.get(segments.slice(start).join("/"));
    if (found) return found;
  }
  const name = segments[segments.length - 1]!;
  return fileNames.get(name) === 1 ? (byPath.get(name) ?? null) : null;
}
