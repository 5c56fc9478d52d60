import { findColumn, parseCsvTable, stripByteOrderMark } from "./csv";
import { canonicalDimension, matchDimension, VBENCH_DIMENSIONS } from "./vbench-dimensions";

/** One prompt and the dimensions it is evaluated in (empty when the list does not say). */
export interface PromptEntry {
  prompt: string;
  dimensions: string[];
  /** What each dimension's evaluator needs of the prompt (VBench-2.0's `auxiliary_info`), by dimension, as the file has it. */
  auxiliaryInfo?: Record<string, unknown>;
}

export type PromptListFormat =
  "vbench-info-json" | "vbench-full-info-json" | "json-array" | "jsonl" | "csv" | "dimension-txt" | "txt";

export type PromptListResult =
  { ok: true; entries: PromptEntry[]; format: PromptListFormat } | { ok: false; error: string };

/** VBench-2.0 names a video after the first 180 characters of its prompt. */
export const VBENCH_PROMPT_NAME_LENGTH = 180;

type EntryResult = { ok: true; entry: PromptEntry } | { ok: false; error: string };

function baseName(fileName: string): string {
  return fileName.split(/[\\/]/).pop() ?? fileName;
}

function fileExtension(fileName: string): string {
  const name = baseName(fileName);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot).toLowerCase();
}

function fileStem(fileName: string): string {
  const name = baseName(fileName);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? name : name.slice(0, dot);
}

function uniqueDimensions(labels: readonly string[]): string[] {
  return [...new Set(labels.map(canonicalDimension).filter((label) => label !== ""))];
}

/** Several dimensions in one CSV cell or JSON string, separated by `;` or `|`. */
export function splitDimensionList(cell: string): string[] {
  return uniqueDimensions(cell.split(/[;|]/));
}

function readDimensionsField(
  value: unknown,
  where: string,
): { ok: true; dimensions: string[] } | { ok: false; error: string } {
  if (value === undefined || value === null) return { ok: true, dimensions: [] };
  if (typeof value === "string") return { ok: true, dimensions: splitDimensionList(value) };
  if (Array.isArray(value) && value.every((item): item is string => typeof item === "string")) {
    return { ok: true, dimensions: uniqueDimensions(value) };
  }
  return { ok: false, error: `${where}: "dimension" must be a string or a list of strings` };
}

function readPromptObject(value: unknown, where: string): EntryResult {
  if (typeof value === "string") {
    const prompt = value.trim();
    return prompt === ""
      ? { ok: false, error: `${where}: the prompt is empty` }
      : { ok: true, entry: { prompt, dimensions: [] } };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: `${where}: expected an object with a "prompt" field` };
  }
  const record = value as Record<string, unknown>;
  const prompt = record.prompt;
  if (typeof prompt !== "string") {
    return {
      ok: false,
      error: prompt === undefined ? `${where}: no "prompt" field` : `${where}: "prompt" must be a string`,
    };
  }
  if (prompt.trim() === "") return { ok: false, error: `${where}: the prompt is empty` };
  const dimensions = readDimensionsField(record.dimension ?? record.dimensions, where);
  if (!dimensions.ok) return dimensions;
  return { ok: true, entry: { prompt: prompt.trim(), dimensions: dimensions.dimensions } };
}

function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** VBench2_full_text_info.json: `{ "<prompt[:180]>": { "caption": "<prompt>", "dimension": [...] } }`. */
function parseVbenchInfo(info: Record<string, unknown>): PromptListResult {
  const entries: PromptEntry[] = [];
  for (const [key, value] of Object.entries(info)) {
    const where = `entry "${key.slice(0, 60)}${key.length > 60 ? "…" : ""}"`;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { ok: false, error: `${where}: expected an object with "caption" and "dimension"` }; // VBench's own field, not a task name
    }
    const record = value as Record<string, unknown>;
    const caption = record.caption ?? key;
    if (typeof caption !== "string" || caption.trim() === "")
      return { ok: false, error: `${where}: "caption" must be a non-empty string` }; // VBench's own field, not a task name
    const dimensions = readDimensionsField(record.dimension, where);
    if (!dimensions.ok) return dimensions;
    entries.push({ prompt: caption.trim(), dimensions: dimensions.dimensions });
  }
  return { ok: true, entries, format: "vbench-info-json" };
}

/**
 * VBench2_full_info.json and meta_info/<Dimension>.json: `[{"prompt_en", "dimension": [..] or "..", "auxiliary_info"?}]`.
 * The same prompt appears once per dimension, each with its own auxiliary_info, which is kept under that dimension.
 */
function parseVbenchFullInfo(value: unknown[]): PromptListResult {
  const entries: PromptEntry[] = [];
  for (const [index, item] of value.entries()) {
    const where = `entry ${index + 1}`;
    if (typeof item !== "object" || item === null || Array.isArray(item))
      return { ok: false, error: `${where}: expected an object with "prompt_en" and "dimension"` };
    const record = item as Record<string, unknown>;
    if (typeof record.prompt_en !== "string" || record.prompt_en.trim() === "")
      return { ok: false, error: `${where}: "prompt_en" must be a non-empty string` };
    const dimensions = readDimensionsField(record.dimension, where);
    if (!dimensions.ok) return dimensions;
    if (dimensions.dimensions.length === 0) return { ok: false, error: `${where}: "dimension" names no dimension` };
    const entry: PromptEntry = { prompt: record.prompt_en.trim(), dimensions: dimensions.dimensions };
    if (record.auxiliary_info !== undefined && record.auxiliary_info !== null)
      entry.auxiliaryInfo = Object.fromEntries(dimensions.dimensions.map((d) => [d, record.auxiliary_info]));
    entries.push(entry);
  }
  return { ok: true, entries, format: "vbench-full-info-json" };
}

function parseJsonList(text: string): PromptListResult {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: `invalid JSON (${parsed.reason})` };
  const value = parsed.value;
  const first = Array.isArray(value) ? value[0] : undefined;
  if (Array.isArray(value) && typeof first === "object" && first !== null && "prompt_en" in first)
    return parseVbenchFullInfo(value);
  if (Array.isArray(value)) {
    const entries: PromptEntry[] = [];
    for (const [index, item] of value.entries()) {
      const entry = readPromptObject(item, `item ${index + 1}`);
      if (!entry.ok) return entry;
      entries.push(entry.entry);
    }
    return { ok: true, entries, format: "json-array" };
  }
  if (typeof value === "object" && value !== null) return parseVbenchInfo(value as Record<string, unknown>);
  return { ok: false, error: 'expected a JSON array of {"prompt": …} objects or a VBench info object' };
}

function parseJsonLines(text: string): PromptListResult {
  const entries: PromptEntry[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const where = `line ${index + 1}`;
    const parsed = parseJsonText(line);
    if (!parsed.ok) return { ok: false, error: `${where}: invalid JSON (${parsed.reason})` };
    const entry = readPromptObject(parsed.value, where);
    if (!entry.ok) return entry;
    entries.push(entry.entry);
  }
  return { ok: true, entries, format: "jsonl" };
}

function parseCsvList(text: string): PromptListResult {
  const table = parseCsvTable(text);
  if (!table.ok) return table;
  const promptColumn = findColumn(table.columns, ["prompt", "caption"]); // VBench's own field, not a task name
  if (!promptColumn) {
    return {
      ok: false,
      error: `line 1: the header has no "prompt" column (found: ${table.columns.filter(Boolean).join(", ") || "nothing"})`,
    };
  }
  const dimensionColumn = findColumn(table.columns, ["dimension", "dimensions"]);
  const entries: PromptEntry[] = [];
  for (const row of table.rows) {
    const prompt = (row.values.get(promptColumn) ?? "").trim();
    const dimensions = dimensionColumn ? splitDimensionList(row.values.get(dimensionColumn) ?? "") : [];
    if (prompt === "") {
      const rowIsEmpty = [...row.values.values()].every((value) => value.trim() === "");
      if (rowIsEmpty) continue;
      return { ok: false, error: `line ${row.line}: the prompt is empty` };
    }
    entries.push({ prompt, dimensions });
  }
  return { ok: true, entries, format: "csv" };
}

/** One prompt per line; VBench's own lists mix LF, CRLF and trailing spaces, and its sampler strips each line. */
function parseTextList(fileName: string, text: string): PromptListResult {
  const dimension = matchDimension(fileStem(fileName));
  const entries = text
    .split(/\r\n|\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((prompt) => ({ prompt, dimensions: dimension ? [dimension] : [] }));
  return { ok: true, entries, format: dimension ? "dimension-txt" : "txt" };
}

/** What a prompt list may be, for messages that say what was expected. */
export const PROMPT_LIST_FORMATS_IN_WORDS =
  'one prompt per line (.txt), a CSV with a "prompt" column, JSON Lines or a JSON array of {"prompt": …}, VBench2_full_text_info.json, or VBench2_full_info.json / meta_info/<Dimension>.json';

/**
 * Reads a prompt list: VBench2_full_text_info.json, a JSON array, JSON Lines, a CSV with a
 * `prompt` column (and optional `dimension`, several separated by `;` or `|`), or plain text with
 * one prompt per line (named like `Camera_Motion.txt`, every prompt gets that dimension).
 * Errors name the line or item but not the file, which the caller already knows.
 */
export function parsePromptList(fileName: string, content: string): PromptListResult {
  const text = stripByteOrderMark(content);
  const extension = fileExtension(fileName);
  const parsed = (() => {
    switch (extension) {
      case ".json":
        return parseJsonList(text);
      case ".jsonl":
      case ".ndjson":
        return parseJsonLines(text);
      case ".csv":
        return parseCsvList(text);
      case ".txt":
        return parseTextList(fileName, text);
      default:
        return {
          ok: false as const,
          error: `unsupported prompt list format (${extension || "no extension"}); use .txt, .csv, .json or .jsonl`,
        };
    }
  })();
  if (parsed.ok && parsed.entries.length === 0)
    return { ok: false, error: `no prompts found (${PROMPT_LIST_FORMATS_IN_WORDS})` };
  return parsed;
}

// ---------------------------------------------------------------------------------------------
// Prompt index: from a file name's (possibly truncated) prompt back to the full prompt.

/** Python slices by code point and JS by UTF-16 unit; they differ only for characters outside the BMP. */
function truncations(prompt: string): string[] {
  const byCodeUnit = prompt.slice(0, VBENCH_PROMPT_NAME_LENGTH);
  const byCodePoint = Array.from(prompt).slice(0, VBENCH_PROMPT_NAME_LENGTH).join("");
  return [byCodeUnit, byCodePoint, prompt];
}

/** File systems hand back NFD (macOS) and prompt lines carry stray trailing spaces. */
export function normalizePromptKey(text: string): string {
  return text.normalize("NFC").trimEnd();
}

/**
 * The keys a file-name stem is looked up by for this prompt, as `PromptIndex.candidates` finds them once
 * normalised: stored with each prompt-list entry, so the database can match videos without recomputing them.
 */
export function promptNameKeys(prompt: string): string[] {
  return [...new Set(truncations(prompt).map(normalizePromptKey))];
}

function dimensionOrder(dimension: string): number {
  const position = (VBENCH_DIMENSIONS as readonly string[]).indexOf(dimension);
  return position === -1 ? VBENCH_DIMENSIONS.length : position;
}

function compareDimensions(a: string, b: string): number {
  return dimensionOrder(a) - dimensionOrder(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function addCandidate(map: Map<string, PromptEntry[]>, key: string, entry: PromptEntry): void {
  const existing = map.get(key);
  if (!existing) map.set(key, [entry]);
  else if (!existing.includes(entry)) existing.push(entry);
}

/**
 * Every prompt the project knows, merged across lists, looked up by the stem of a video's file
 * name. Exact keys (the 180-character truncation or the whole prompt) win over normalised ones
 * (NFC, trailing whitespace trimmed). Serialises to its entries (`JSON.stringify(index)`).
 */
export class PromptIndex {
  readonly entries: readonly PromptEntry[];
  private readonly exact = new Map<string, PromptEntry[]>();
  private readonly normalized = new Map<string, PromptEntry[]>();

  constructor(entries: readonly PromptEntry[]) {
    this.entries = entries;
    for (const entry of entries) {
      for (const key of truncations(entry.prompt)) {
        addCandidate(this.exact, key, entry);
        addCandidate(this.normalized, normalizePromptKey(key), entry);
      }
    }
  }

  get size(): number {
    return this.entries.length;
  }

  /** All prompts a file-name stem could stand for; more than one only when prompts share their first 180 characters. */
  candidates(stem: string): readonly PromptEntry[] {
    return this.exact.get(stem) ?? this.normalized.get(normalizePromptKey(stem)) ?? [];
  }

  /** The one prompt a stem stands for, or null when none or several match. */
  lookup(stem: string): PromptEntry | null {
    const found = this.candidates(stem);
    return found.length === 1 ? found[0]! : null;
  }

  promptsInDimension(dimension: string): PromptEntry[] {
    return this.entries.filter((entry) => entry.dimensions.includes(dimension));
  }

  /** Dimensions named by any prompt, VBench's first (in upstream order), then others alphabetically. */
  dimensions(): string[] {
    return [...new Set(this.entries.flatMap((entry) => entry.dimensions))].sort(compareDimensions);
  }

  toJSON(): PromptEntry[] {
    return this.entries.map((entry) => ({
      prompt: entry.prompt,
      dimensions: [...entry.dimensions],
      ...(entry.auxiliaryInfo ? { auxiliaryInfo: entry.auxiliaryInfo } : {}),
    }));
  }
}

/**
 * Merges entries into an index. The same prompt in several lists (compared after NFC and trimming)
 * becomes one entry carrying every dimension, in VBench order; the first spelling seen is kept.
 */
export function buildPromptIndex(entries: readonly PromptEntry[]): PromptIndex {
  // Auxiliary info is keyed by the file's dimension text, which may be `__proto__`: a Map until the entry is built.
  const merged = new Map<string, { prompt: string; dimensions: Set<string>; auxiliaryInfo: Map<string, unknown> }>();
  for (const entry of entries) {
    const prompt = entry.prompt.trim();
    if (prompt === "") continue;
    const key = prompt.normalize("NFC");
    const existing = merged.get(key);
    const target = existing ?? { prompt, dimensions: new Set<string>(), auxiliaryInfo: new Map<string, unknown>() };
    for (const dimension of entry.dimensions) {
      const canonical = canonicalDimension(dimension);
      if (canonical !== "") target.dimensions.add(canonical);
    }
    // A later list's auxiliary info of a dimension replaces an earlier one's (a corrected meta_info file).
    for (const [dimension, info] of Object.entries(entry.auxiliaryInfo ?? {}))
      target.auxiliaryInfo.set(canonicalDimension(dimension), info);
    if (!existing) merged.set(key, target);
  }
  return new PromptIndex(
    [...merged.values()].map(({ prompt, dimensions, auxiliaryInfo }) => ({
      prompt,
      dimensions: [...dimensions].sort(compareDimensions),
      ...(auxiliaryInfo.size ? { auxiliaryInfo: Object.fromEntries(auxiliaryInfo) } : {}),
    })),
  );
}
