/** One CSV record and the 1-based line it starts on (a quoted field may span several lines). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export type CsvParseResult = { ok: true; records: CsvRecord[] } | { ok: false; error: string };

const QUOTE = '"';
const COMMA = ",";
const CR = "\r";
const LF = "\n";

export function stripByteOrderMark(text: string): string {
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/**
 * RFC 4180 records: quoted fields may hold commas, line breaks and doubled quotes. Accepts CRLF,
 * LF or lone CR line breaks and a leading byte order mark, because spreadsheet exports vary. A
 * quote inside an unquoted field is kept literally (as Python's csv module does); text after a
 * closing quote is an error, since it means the quoting is broken and the columns would shift.
 * `delimiter: "\t"` reads the tab-separated files pandas writes (`to_csv(sep="\t")`), quoted the same way.
 */
export function parseCsv(text: string, { delimiter = COMMA }: { delimiter?: "," | "\t" } = {}): CsvParseResult {
  const input = stripByteOrderMark(text);
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let position = 0;
  let atFieldStart = true;

  const endRecord = () => {
    fields.push(field);
    records.push({ line: recordLine, fields });
    fields = [];
    field = "";
    atFieldStart = true;
  };

  while (position < input.length) {
    const char = input[position]!;
    if (atFieldStart && char === QUOTE) {
      const quotedStartLine = line;
      position += 1;
      let closed = false;
      while (position < input.length) {
        const inner = input[position]!;
        if (inner === QUOTE) {
          if (input[position + 1] === QUOTE) {
            field += QUOTE;
            position += 2;
            continue;
          }
          position += 1;
          closed = true;
          break;
        }
        if (inner === LF || (inner === CR && input[position + 1] !== LF)) line += 1;
        field += inner;
        position += 1;
      }
      if (!closed) return { ok: false, error: `line ${quotedStartLine}: a quoted field is never closed (missing ")` };
      const next = input[position];
      if (next !== undefined && next !== delimiter && next !== CR && next !== LF) {
        return {
          ok: false,
          error: `line ${line}: unexpected text after a closing quote; a quote inside a field must be doubled ("")`,
        };
      }
      atFieldStart = false;
      continue;
    }
    if (char === delimiter) {
      fields.push(field);
      field = "";
      atFieldStart = true;
      position += 1;
      continue;
    }
    if (char === CR || char === LF) {
      position += char === CR && input[position + 1] === LF ? 2 : 1;
      endRecord();
      line += 1;
      recordLine = line;
      continue;
    }
    field += char;
    atFieldStart = false;
    position += 1;
  }
  // A final line break ends the last record; without one, the last record still counts.
  if (!atFieldStart || fields.length > 0 || field !== "") endRecord();
  return { ok: true, records };
}

/** A data row keyed by the header's column names as written (trimmed). */
export interface CsvRow {
  line: number;
  values: Map<string, string>;
}

/** The header column (as written) matching the first of `names` present, ignoring case. */
export function findColumn(columns: readonly string[], names: readonly string[]): string | null {
  for (const name of names) {
    const found = columns.find((column) => column.toLowerCase() === name.toLowerCase());
    if (found !== undefined) return found;
  }
  return null;
}

export type CsvTableResult = { ok: true; columns: string[]; rows: CsvRow[] } | { ok: false; error: string };

function isBlankRecord(record: CsvRecord): boolean {
  return record.fields.length === 1 && record.fields[0]!.trim() === "";
}

/**
 * Header plus rows. Blank lines are skipped; a row with a different number of fields than the
 * header is an error, because guessing which column is missing would attach values to the wrong name.
 */
export function parseCsvTable(text: string): CsvTableResult {
  const parsed = parseCsv(text);
  if (!parsed.ok) return parsed;
  const records = parsed.records.filter((record) => !isBlankRecord(record));
  const header = records[0];
  if (!header) return { ok: false, error: "the CSV file is empty (it needs a header line)" };
  const columns = header.fields.map((name) => name.trim());
  const seen = new Set<string>();
  for (const column of columns) {
    const key = column.toLowerCase();
    if (key !== "" && seen.has(key))
      return { ok: false, error: `line ${header.line}: the header names the column "${column}" twice` };
    seen.add(key);
  }
  const rows: CsvRow[] = [];
  for (const record of records.slice(1)) {
    if (record.fields.length !== columns.length) {
      return {
        ok: false,
        error: `line ${record.line}: ${record.fields.length} field${record.fields.length === 1 ? "" : "s"}, but the header has ${columns.length}`,
      };
    }
    const values = new Map<string, string>();
    columns.forEach((column, index) => {
      if (column !== "") values.set(column, record.fields[index]!);
    });
    rows.push({ line: record.line, values });
  }
  return { ok: true, columns, rows };
}
