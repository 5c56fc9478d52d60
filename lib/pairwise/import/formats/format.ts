import type { Strength, Verdict } from "../../verdicts";
import {
  MAX_CELL_CHARS,
  type LogicalColumn,
  type PairImportOptions,
  type Refusal,
  type RefusalReason,
  type RowReading,
  type SourceVote,
} from "../import.types";
import type { SourceRecord } from "../records";

/** How a format's file is read: a CSV, JSON Lines, or JSON (a document or JSON Lines, whichever the file is). */
export type RecordReader = "csv" | "jsonl" | "json";

/** One import format: how its file is read and what one of its records says. Pure: no database. */
export interface PairwiseImportFormat {
  id: PairImportOptions["format"];
  label: string;
  reader: RecordReader;
  /** The file's column for each logical column, before the import's `mapping` renames any. */
  columns: Partial<Record<LogicalColumn, string>>;
  readRecord(record: SourceRecord & { fields: Record<string, unknown> }, context: FormatContext): RowReading;
}

export interface FormatContext {
  options: PairImportOptions;
  /** The column holding a logical column in this file: the import's mapping, else the format's own name. */
  column(logical: LogicalColumn): string;
}

export class RowRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** A cell as text: null when absent, empty or JSON null; a number as its decimal text; refused when too long. */
export function textCell(fields: Record<string, unknown>, column: string): string | null {
  if (!Object.hasOwn(fields, column)) return null;
  const value = fields[column];
  if (value === null || value === undefined) return null;
  const text = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : null;
  if (text === null) throw new RowRefusal("malformed_row", `"${column}" is not text`);
  if (text.includes("\u0000")) throw new RowRefusal("malformed_row", `"${column}" holds a NUL byte`);
  if (text.length > MAX_CELL_CHARS)
    throw new RowRefusal("cell_too_long", `"${column}" holds more than ${MAX_CELL_CHARS} characters`);
  return text || null;
}

export function requiredCell(fields: Record<string, unknown>, column: string): string {
  const text = textCell(fields, column);
  if (text === null) throw new RowRefusal("missing_column", `the row has no "${column}"`);
  return text;
}

/** A pair's identity in its file: its two videos when named, else its prompt and generators. */
export function pairKeyOf(
  vote: Pick<SourceVote, "prompt" | "generatorA" | "generatorB" | "videoA" | "videoB" | "sha256A" | "sha256B">,
): string {
  if (vote.videoA || vote.sha256A || vote.videoB || vote.sha256B)
    return JSON.stringify(["v", vote.sha256A ?? vote.videoA, vote.sha256B ?? vote.videoB]);
  return JSON.stringify(["g", vote.prompt, vote.generatorA, vote.generatorB]);
}

/** A reading of one row: its votes, or its refusal when reading it threw one. */
export function readingOf(row: number, read: (interpret: (what: string) => void) => SourceVote[]): RowReading {
  const interpretations: string[] = [];
  try {
    return { votes: read((what) => interpretations.push(what)), refusals: [], interpretations };
  } catch (error) {
    if (!(error instanceof RowRefusal)) throw error;
    return { votes: [], refusals: [{ row, reason: error.reason, message: error.message }], interpretations };
  }
}

/** A rater's vote that could not be read, while the row's other raters' were. */
export function raterRefusal(row: number, rater: string, error: unknown): Refusal {
  if (!(error instanceof RowRefusal)) throw error;
  return { row, rater, reason: error.reason, message: error.message };
}

export type VerdictReading = { verdict: Verdict; strength: Strength; interpretation?: string };
