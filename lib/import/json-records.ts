/**
 * The records of a JSON Lines file or a JSON array, each with the 1-based line it starts on, so an import
 * can report every bad record at its own line and still read the others.
 */
export interface RawRecord {
  line: number;
  value: Record<string, unknown>;
}

export type RecordFileFormat = "jsonl" | "json" | "csv";

/** From the file name; null lets the content decide ("[" a JSON array, "{" JSONL, anything else CSV). */
export function recordFileFormat(fileName: string): RecordFileFormat | null {
  const lower = fileName.toLowerCase();
  if (/\.(jsonl|ndjson)$/.test(lower)) return "jsonl";
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".csv")) return "csv";
  return null;
}

export interface RecordError {
  /** 1-based line, or null for an error about the whole file. */
  line: number | null;
  message: string;
}

export const lineOf = (text: string, offset: number) => {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
};

export function jsonlRecords(text: string, errors: RecordError[], what: string): RawRecord[] {
  const records: RawRecord[] = [];
  text.split(/\r?\n|\r/).forEach((lineText, index) => {
    if (lineText.trim() === "") return;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch (error) {
      errors.push({ line, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      errors.push({ line, message: `each line must be one JSON object (a ${what})` });
    else records.push({ line, value: value as Record<string, unknown> });
  });
  return records;
}

/**
 * A JSON array's elements with the line each starts on. The top level is scanned by hand (strings and
 * brackets tracked) so that a broken element is reported at its own line and the others still parse.
 */
export function jsonArrayRecords(text: string, errors: RecordError[], what: string): RawRecord[] {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== "[") {
    errors.push({
      line: start < 0 ? null : lineOf(text, start),
      message: `a JSON file is one array of ${what} objects`,
    });
    return [];
  }
  const spans: { from: number; to: number }[] = [];
  let depth = 0;
  let inString = false;
  let elementStart = -1;
  let end = -1;
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i]!;
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    if (depth === 0 && elementStart < 0 && !/\s|,|\]/.test(char)) elementStart = i;
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      if (depth === 0 && char === "]") {
        if (elementStart >= 0) spans.push({ from: elementStart, to: i });
        end = i;
        break;
      }
      depth--;
    } else if (char === "," && depth === 0) {
      if (elementStart >= 0) spans.push({ from: elementStart, to: i });
      else errors.push({ line: lineOf(text, i), message: "an empty element (two commas in a row)" });
      elementStart = -1;
    }
  }
  if (end < 0) {
    errors.push({
      line: lineOf(text, start),
      message: "the JSON array that starts here is never closed (the file seems cut off)",
    });
    return [];
  }
  if (text.slice(end + 1).trim() !== "")
    errors.push({
      line: lineOf(text, end + 1 + text.slice(end + 1).search(/\S/)),
      message: "text after the end of the JSON array",
    });
  const records: RawRecord[] = [];
  for (const span of spans) {
    const line = lineOf(text, span.from);
    let value: unknown;
    try {
      value = JSON.parse(text.slice(span.from, span.to));
    } catch (error) {
      errors.push({ line, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      errors.push({ line, message: `each element must be one JSON object (a ${what})` });
    else records.push({ line, value: value as Record<string, unknown> });
  }
  return records;
}
