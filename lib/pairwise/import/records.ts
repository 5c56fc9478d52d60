/**
 * The records of an imported file, read as it streams: a CSV's rows (as objects keyed by its header), a JSON Lines
 * file's lines, or a JSON document's items (an array, or an object of objects as UVE-Bench writes: each item gets its
 * key as `_key`). CSV and JSON Lines hold one record in memory at a time, whatever the file's length; a JSON document
 * is parsed whole, so it is bounded (MAX_JSON_DOCUMENT_BYTES) and a longer file is asked for as JSON Lines.
 */
import { ValidationError } from "../../errors";

export interface SourceRecord {
  /** 1-based: the CSV's data row (header not counted), the JSONL's line, the document's item. */
  row: number;
  /** The record's cells, or null when the row is not an object (a JSONL line that is not one). */
  fields: Record<string, unknown> | null;
  /** Why the row could not be read (a broken JSON line, a CSV row with more cells than the header). */
  error?: string;
}

export const MAX_JSON_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** UTF-8 text pieces of a byte stream (a character split across two chunks is decoded once both are in). */
export async function* textChunks(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of bytes) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** The CSV's records as arrays of cells (RFC 4180 quoting; CRLF, LF or CR line ends; a leading byte order mark). */
export async function* csvRows(text: AsyncIterable<string>): AsyncGenerator<string[]> {
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let quoteClosed = false;
  let atFieldStart = true;
  let first = true;
  let afterCr = false;
  for await (let chunk of text) {
    if (first) {
      if (chunk.startsWith("\uFEFF")) chunk = chunk.slice(1);
      first = false;
    }
    for (let i = 0; i < chunk.length; i++) {
      const char = chunk[i]!;
      if (afterCr) {
        afterCr = false;
        if (char === "\n") continue;
      }
      if (quoted) {
        if (char === '"') {
          quoted = false;
          quoteClosed = true;
        } else field += char;
        continue;
      }
      if (quoteClosed && char === '"') {
        // a doubled quote inside a quoted field
        field += '"';
        quoted = true;
        quoteClosed = false;
        continue;
      }
      if (char === ",") {
        fields.push(field);
        field = "";
        atFieldStart = true;
        quoteClosed = false;
      } else if (char === "\n" || char === "\r") {
        afterCr = char === "\r";
        fields.push(field);
        if (!(fields.length === 1 && fields[0] === "" && !quoteClosed)) yield fields;
        fields = [];
        field = "";
        atFieldStart = true;
        quoteClosed = false;
      } else if (atFieldStart && char === '"') {
        quoted = true;
        atFieldStart = false;
      } else {
        field += char;
        atFieldStart = false;
      }
    }
  }
  if (quoted) throw new ValidationError("The CSV ends inside a quoted cell: its quoting is broken.");
  if (field !== "" || fields.length > 0 || quoteClosed) {
    fields.push(field);
    yield fields;
  }
}

/** A CSV's data rows as objects keyed by its header row (cells trimmed of surrounding spaces). */
export async function* csvRecords(text: AsyncIterable<string>): AsyncGenerator<SourceRecord> {
  let header: string[] | null = null;
  let row = 0;
  for await (const cells of csvRows(text)) {
    if (!header) {
      header = cells.map((cell) => cell.trim());
      continue;
    }
    row += 1;
    if (cells.length > header.length) {
      yield { row, fields: null, error: `${cells.length} cells under a header of ${header.length}` };
      continue;
    }
    const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    header.forEach((name, i) => {
      if (i < cells.length) fields[name] = cells[i]!.trim();
    });
    yield { row, fields };
  }
  if (!header) throw new ValidationError("The CSV is empty: it needs a header row.");
}

/** Lines of text, without their line ends. */
async function* lines(text: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of text) {
    rest += chunk;
    let end: number;
    while ((end = rest.indexOf("\n")) >= 0) {
      yield rest.slice(0, end).replace(/\r$/, "");
      rest = rest.slice(end + 1);
    }
  }
  if (rest) yield rest.replace(/\r$/, "");
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A JSON Lines file's objects; an empty line is skipped, a line that is not a JSON object is a row with an error. */
export async function* jsonlRecords(text: AsyncIterable<string>): AsyncGenerator<SourceRecord> {
  let row = 0;
  for await (const line of lines(text)) {
    row += 1;
    const trimmed = row === 1 ? line.replace(/^\uFEFF/, "").trim() : line.trim();
    if (!trimmed) continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      yield { row, fields: null, error: "the line is not JSON" };
      continue;
    }
    const fields = asObject(value);
    yield fields ? { row, fields } : { row, fields: null, error: "the line is not a JSON object" };
  }
}

/** A JSON document's items: an array's elements, or an object's values (each with its key as `_key`). */
export function documentRecords(text: string): SourceRecord[] {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    throw new ValidationError("The file is not JSON.");
  }
  const items: [string | null, unknown][] = Array.isArray(value)
    ? value.map((item) => [null, item])
    : asObject(value)
      ? Object.entries(value as Record<string, unknown>)
      : [];
  if (!Array.isArray(value) && !asObject(value))
    throw new ValidationError("The JSON document is neither an array nor an object of items.");
  return items.map(([key, item], i) => {
    const fields = asObject(item);
    if (!fields) return { row: i + 1, fields: null, error: "the item is not a JSON object" };
    return { row: i + 1, fields: key === null ? fields : { ...fields, _key: key } };
  });
}

/** The whole text, refused once it passes `limit` characters (a JSON document is parsed whole). */
async function wholeText(text: AsyncIterable<string>, first: string, limit: number): Promise<string> {
  const parts = [first];
  let size = first.length;
  for await (const chunk of text) {
    size += chunk.length;
    if (size > limit)
      throw new ValidationError(
        `A JSON document may hold at most ${limit / 2 ** 20} MiB; write a longer file as JSON Lines (one object a line).`,
      );
    parts.push(chunk);
  }
  return parts.join("");
}

/**
 * A JSON file's records, whether it is one document (an array or an object of items) or JSON Lines: a file whose first
 * line is a whole JSON object is read as JSON Lines, anything else as one document.
 */
export async function* jsonRecords(
  text: AsyncIterable<string>,
  { documentLimit = MAX_JSON_DOCUMENT_BYTES }: { documentLimit?: number } = {},
): AsyncGenerator<SourceRecord> {
  const iterator = text[Symbol.asyncIterator]();
  let head = "";
  let done = false;
  while (!done && !head.includes("\n")) {
    const next = await iterator.next();
    if (next.done) done = true;
    else head += next.value;
  }
  const rest: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => (done ? { next: async () => ({ done: true, value: undefined }) } : iterator),
  };
  const firstLine = head
    .split("\n", 1)[0]!
    .replace(/^\uFEFF/, "")
    .trim();
  let firstIsObject = false;
  try {
    firstIsObject = asObject(JSON.parse(firstLine)) !== null;
  } catch {
    firstIsObject = false;
  }
  if (firstIsObject) {
    yield* jsonlRecords(
      (async function* () {
        yield head;
        yield* rest;
      })(),
    );
    return;
  }
  yield* documentRecords(await wholeText(rest, head, documentLimit));
}
