// Ratings CSV (header item,rater,value in any order; RFC 4180 quoting) → RatingTable.
//
// A million-line file is mostly repetition: a few raters, a few values, each item on consecutive lines. So
// fields are not sliced into strings per line: each field is hashed straight from the text while scanning
// for its end, looked up in a hash table of the strings seen so far, and sliced only the first time it
// appears. Lines containing a double quote leave this path for a full RFC 4180 record parser.
import { StatsInputError } from "./input-error";
import type { MeasurementLevel } from "./krippendorff-alpha";
import { assembleRatingTable, isNumericText, MISSING, RatingEntries, type RatingTable } from "./rating-table";

const TAB = 9;
const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const COMMA = 44;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/** Spaces and tabs around an unquoted field are not part of it, nor is the CR of a CRLF line break. */
function isPadding(code: number): boolean {
  return code === SPACE || code === TAB || code === CR;
}

/** FNV-1a over UTF-16 code units. */
function hashRange(text: string, from: number, to: number): number {
  let hash = FNV_OFFSET;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash;
}

function sameChars(known: string, text: string, from: number): boolean {
  for (let i = 0; i < known.length; i++) if (known.charCodeAt(i) !== text.charCodeAt(from + i)) return false;
  return true;
}

/** Maps field texts to dense ids (0, 1, …) with open addressing keyed on the FNV hash. */
class FieldInterner {
  readonly strings: string[] = [];
  private hashes = new Int32Array(64);
  private slots = new Int32Array(128);
  private mask = 127;

  /** Id of text[from, to), whose hash is `hash`; slices the text only when it is new. */
  internRange(text: string, from: number, to: number, hash: number): number {
    const length = to - from;
    let slot = hash & this.mask;
    for (let entry = this.slots[slot]!; entry !== 0; entry = this.slots[slot]!) {
      const id = entry - 1;
      if (this.hashes[id] === hash) {
        const known = this.strings[id]!;
        if (known.length === length && sameChars(known, text, from)) return id;
      }
      slot = (slot + 1) & this.mask;
    }
    return this.add(text.slice(from, to), hash, slot);
  }

  internString(value: string): number {
    const hash = hashRange(value, 0, value.length);
    let slot = hash & this.mask;
    for (let entry = this.slots[slot]!; entry !== 0; entry = this.slots[slot]!) {
      if (this.strings[entry - 1] === value) return entry - 1;
      slot = (slot + 1) & this.mask;
    }
    return this.add(value, hash, slot);
  }

  private add(value: string, hash: number, slot: number): number {
    const id = this.strings.length;
    this.strings.push(value);
    if (id === this.hashes.length) {
      const grown = new Int32Array(id * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = hash;
    this.slots[slot] = id + 1;
    // Kept at most half full so that probe sequences stay short.
    if (2 * (id + 1) > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const size = this.slots.length * 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let id = 0; id < this.strings.length; id++) {
      let slot = this.hashes[id]! & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id + 1;
    }
  }
}

/** Where an unquoted field ends, its hash, and the character that ended it (-1 at the end of the text). */
interface FieldScan {
  end: number;
  hash: number;
  stop: number;
}

/** Scans an unquoted field from `from`, stopping at a comma, a line feed or a double quote. */
function scanField(text: string, from: number, out: FieldScan): void {
  let hash = FNV_OFFSET;
  let p = from;
  const length = text.length;
  out.stop = -1;
  while (p < length) {
    const c = text.charCodeAt(p);
    if (c === COMMA || c === NEWLINE || c === QUOTE) {
      out.stop = c;
      break;
    }
    hash = Math.imul(hash ^ c, FNV_PRIME);
    p++;
  }
  out.end = p;
  out.hash = hash;
}

interface ParsedRecord {
  fields: string[];
  /** Offset just past the record's line break (or the end of the text). */
  next: number;
  /** Line breaks inside quoted fields, so line numbers stay right after a multi-line record. */
  innerLineBreaks: number;
}

function trimPadding(text: string): string {
  let from = 0;
  let to = text.length;
  while (from < to && isPadding(text.charCodeAt(from))) from++;
  while (to > from && isPadding(text.charCodeAt(to - 1))) to--;
  return from === 0 && to === text.length ? text : text.slice(from, to);
}

/**
 * One RFC 4180 record starting at `start`: fields optionally in double quotes, "" for a quote inside them,
 * line breaks allowed inside quotes, padding allowed around the quotes. A quote in the middle of an
 * unquoted field is kept as a character.
 */
function parseQuotedRecord(text: string, start: number, line: number): ParsedRecord {
  const fields: string[] = [];
  let pos = start;
  let innerLineBreaks = 0;
  for (;;) {
    let lead = pos;
    while (lead < text.length && (text.charCodeAt(lead) === SPACE || text.charCodeAt(lead) === TAB)) lead++;
    if (text.charCodeAt(lead) === QUOTE) {
      let value = "";
      let p = lead + 1;
      for (;;) {
        const q = text.indexOf('"', p);
        if (q === -1) throw new StatsInputError("unterminated quoted field", line);
        const chunk = text.slice(p, q);
        for (let c = chunk.indexOf("\n"); c !== -1; c = chunk.indexOf("\n", c + 1)) innerLineBreaks++;
        value += chunk;
        if (text.charCodeAt(q + 1) === QUOTE) {
          value += '"';
          p = q + 2;
        } else {
          p = q + 1;
          break;
        }
      }
      while (p < text.length && isPadding(text.charCodeAt(p)) && text.charCodeAt(p) !== CR) p++;
      const after = text.charCodeAt(p);
      if (p < text.length && after !== COMMA && after !== NEWLINE && after !== CR) {
        throw new StatsInputError(
          `unexpected ${JSON.stringify(text[p])} after a closing quote`,
          line + innerLineBreaks,
        );
      }
      fields.push(value);
      pos = p;
    } else {
      let p = pos;
      while (p < text.length && text.charCodeAt(p) !== COMMA && text.charCodeAt(p) !== NEWLINE) p++;
      fields.push(trimPadding(text.slice(pos, p)));
      pos = p;
    }
    if (text.charCodeAt(pos) === COMMA) {
      pos++;
      continue;
    }
    if (text.charCodeAt(pos) === CR) pos++;
    if (text.charCodeAt(pos) === NEWLINE) pos++;
    return { fields, next: pos, innerLineBreaks };
  }
}

const COLUMNS = ["item", "rater", "value"] as const;

/** For each field position, which column it is: 0 item, 1 rater, 2 value. */
function columnRoles(header: string[]): Int32Array {
  const names = header.map((name) => name.trim().toLowerCase());
  const missing = COLUMNS.filter((column) => !names.includes(column));
  const unexpected = names.filter((name) => !(COLUMNS as readonly string[]).includes(name));
  if (missing.length > 0 || unexpected.length > 0 || names.length !== COLUMNS.length) {
    const problems = [
      missing.length > 0 ? `missing ${missing.join(", ")}` : "",
      unexpected.length > 0 ? `unexpected ${unexpected.map((n) => JSON.stringify(n)).join(", ")}` : "",
      missing.length === 0 && unexpected.length === 0 ? "a column appears twice" : "",
    ].filter(Boolean);
    throw new StatsInputError(
      `the header must have exactly the columns item, rater, value (any order): ${problems.join("; ")}`,
      1,
    );
  }
  return Int32Array.from(names, (name) => (COLUMNS as readonly string[]).indexOf(name));
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isPadding(text.charCodeAt(i))) return false;
  return true;
}

function fieldCountError(found: number, line: number): StatsInputError {
  return new StatsInputError(`expected 3 fields (item, rater, value), found ${found}`, line);
}

/** Accumulates one record's three fields by column, whichever path parsed them. */
class RecordSink {
  readonly items = new FieldInterner();
  readonly raters = new FieldInterner();
  readonly values = new FieldInterner();
  /** Line on which each distinct value was first seen, to name it if the level refuses it. */
  readonly valueFirstLine: number[] = [];
  readonly entries = new RatingEntries();
  private item = -1;
  private rater = -1;
  private value = MISSING;

  /** A field from the fast path: text[from, to) with its hash, padding not yet removed. */
  takeRange(role: number, text: string, from: number, to: number, hash: number, line: number): void {
    if (from < to && (isPadding(text.charCodeAt(from)) || isPadding(text.charCodeAt(to - 1)))) {
      while (from < to && isPadding(text.charCodeAt(from))) from++;
      while (to > from && isPadding(text.charCodeAt(to - 1))) to--;
      hash = hashRange(text, from, to);
    }
    if (from === to) return this.takeEmpty(role, line);
    if (role === 0) this.item = this.items.internRange(text, from, to, hash);
    else if (role === 1) this.rater = this.raters.internRange(text, from, to, hash);
    else this.value = this.noteValue(this.values.internRange(text, from, to, hash), line);
  }

  /** A field from the quoted-record path, already unquoted. */
  takeString(role: number, value: string, line: number): void {
    if (value === "") return this.takeEmpty(role, line);
    if (role === 0) this.item = this.items.internString(value);
    else if (role === 1) this.rater = this.raters.internString(value);
    else this.value = this.noteValue(this.values.internString(value), line);
  }

  commit(line: number): void {
    this.entries.push(this.item, this.rater, this.value, line);
  }

  private takeEmpty(role: number, line: number): void {
    if (role === 0) throw new StatsInputError("the item is empty", line);
    if (role === 1) throw new StatsInputError("the rater is empty", line);
    this.value = MISSING;
  }

  private noteValue(id: number, line: number): number {
    if (id === this.valueFirstLine.length) this.valueFirstLine.push(line);
    return id;
  }
}

/**
 * Parses the ratings CSV into a table, checking it for the given level. Throws `StatsInputError` with the
 * 1-based line of the first problem: no header, or a header without exactly item, rater and value; a record
 * without exactly three fields; an empty item or rater; a malformed quoted field; a non-numeric value when
 * the level is ordinal, interval or ratio (their differences need numbers; nominal takes any label); a
 * numeral too large for a double ("1e999") at any level; a negative value at the ratio level; a second
 * rating for the same item and rater.
 *
 * An empty value is a missing rating. Spaces and tabs around unquoted fields are ignored; blank lines are
 * skipped; CRLF line breaks and a leading byte-order mark are accepted. When every value is a number,
 * numerals that denote the same number ("7", "7.0") are one category.
 */
export function parseRatingsCsv(text: string, level: MeasurementLevel): RatingTable {
  const length = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  for (;;) {
    if (pos >= length) throw new StatsInputError("the file is empty; expected a header item,rater,value", line);
    const newline = text.indexOf("\n", pos);
    const lineEnd = newline === -1 ? length : newline;
    if (!isBlank(text, pos, lineEnd)) break;
    pos = lineEnd + 1;
    line++;
  }
  const header = parseQuotedRecord(text, pos, line);
  const roles = columnRoles(header.fields);
  line += 1 + header.innerLineBreaks;
  pos = header.next;

  const sink = new RecordSink();
  const scan: FieldScan = { end: 0, hash: 0, stop: -1 };
  const starts = new Int32Array(3);
  const ends = new Int32Array(3);
  const hashes = new Int32Array(3);
  while (pos < length) {
    const recordLine = line;
    let fieldCount = 0;
    let p = pos;
    let quoted = false;
    for (;;) {
      scanField(text, p, scan);
      if (scan.stop === QUOTE) {
        quoted = true;
        break;
      }
      if (fieldCount < 3) {
        starts[fieldCount] = p;
        ends[fieldCount] = scan.end;
        hashes[fieldCount] = scan.hash;
      }
      fieldCount++;
      if (scan.stop !== COMMA) break;
      p = scan.end + 1;
    }
    if (quoted) {
      const record = parseQuotedRecord(text, pos, recordLine);
      if (record.fields.length !== 3) throw fieldCountError(record.fields.length, recordLine);
      for (let f = 0; f < 3; f++) sink.takeString(roles[f]!, record.fields[f]!, recordLine);
      sink.commit(recordLine);
      pos = record.next;
      line += 1 + record.innerLineBreaks;
      continue;
    }
    const lineEnd = scan.end;
    pos = lineEnd + 1;
    line++;
    if (fieldCount === 1 && isBlank(text, starts[0]!, lineEnd)) continue;
    if (fieldCount !== 3) throw fieldCountError(fieldCount, recordLine);
    for (let f = 0; f < 3; f++) sink.takeRange(roles[f]!, text, starts[f]!, ends[f]!, hashes[f]!, recordLine);
    sink.commit(recordLine);
  }

  checkValuesForLevel(sink.values.strings, sink.valueFirstLine, level);
  return assembleRatingTable(
    {
      itemIds: sink.items.strings,
      raterIds: sink.raters.strings,
      rawValues: sink.values.strings,
      entries: sink.entries,
    },
    { numericStrings: true, sourceKind: "line" },
  );
}

function checkValuesForLevel(values: readonly string[], firstLine: readonly number[], level: MeasurementLevel): void {
  let bad: { value: string; line: number; reason: string } | null = null;
  values.forEach((value, id) => {
    const line = firstLine[id]!;
    let reason: string | null = null;
    // A numeral past the double range ("1e999") would become Infinity, at every level: when all values are
    // numerals they are compared as numbers, and the statistics could then only say "pair i", not the line.
    if (isNumericText(value) && !Number.isFinite(Number(value))) reason = "is too large to be a number";
    else if (level === "nominal") return;
    else if (!isNumericText(value))
      reason = `is not a number; --level ${level} needs numeric values (use --level nominal for labels)`;
    else if (level === "ratio" && Number(value) < 0) reason = "is negative; --level ratio needs values of 0 or more";
    if (reason !== null && (bad === null || line < bad.line)) bad = { value, line, reason };
  });
  if (bad !== null) {
    const { value, line, reason } = bad;
    throw new StatsInputError(`the value ${JSON.stringify(value)} ${reason}`, line);
  }
}
