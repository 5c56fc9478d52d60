/**
 * The generic label file: CSV (with a header) or JSONL, one label per row, with the columns `video` (a
 * path in the project or a file name), `annotator`, `target`, `value` and `item` (the caption or
 * question the target belongs to, for targets of an item). Each distinct `annotator` becomes one
 * annotator of the label set.
 *
 * A target is any declared target or reviewed metric of any task, by its id (`verdict`, `s7`,
 * `correctness`) or as `<task>:<id>` (`caption_style:style`) where ids are shared; a task id alone names
 * that task's only target. A target the task declares a presence of (the hallucination categories
 * s1–s10, d1–d9, inconsistency) takes per-video presence labels (1 present, 0 absent), as
 * T2VHaluBench's sheet gives them; every other value must be on its target's declared scale.
 *
 * A wide file (parseWideGenericLabels) has one row per video (and annotator) and one column per target, with a
 * column map saying which column holds the video, the annotator (optional: one annotator when absent), the item
 * (optional) and which target each other mapped column gives, e.g. a rubric task's criteria. Its values are
 * numbers, or a categorical target's label by name (`smooth`, `yes`; a presence target's `present`/`absent`);
 * an empty cell is no label.
 */
import { parseCsv, stripByteOrderMark } from "../import/csv";
import { metricTarget, type JudgmentTarget } from "../reviews/judgment-key";
import { SCORE_TARGET_TYPE } from "../reviews/judgment-target";
import {
  presenceTargetOf,
  scaleViolation,
  type MetricDeclaration,
  type TargetDeclaration,
  type TaskDeclaration,
} from "../task-modules/task-declaration";

export const GENERIC_COLUMNS = ["video", "annotator", "target", "value", "item"] as const;
const REQUIRED = ["video", "annotator", "target", "value"] as const;
const MAX_FIELD = 2000;

export interface GenericLabelRow {
  /** The file's line (CSV: where the record starts; the header is line 1). */
  line: number;
  /** The column the value came from, in a wide file (a long file's is `value`). */
  column?: string;
  video: string;
  annotator: string;
  target: string;
  value: number;
  item: string;
}

export interface GenericIssue {
  row: number;
  column: string;
  cell: string;
  action: "skipped";
  message: string;
}

export type ResolvedTarget =
  | { kind: "presence"; task: TaskDeclaration; id: string; declaration: TargetDeclaration }
  | { kind: "metric"; task: TaskDeclaration; id: string; declaration: MetricDeclaration }
  | { kind: "score"; task: TaskDeclaration; id: string; declaration: TargetDeclaration };

function candidates(task: TaskDeclaration, id: string): ResolvedTarget[] {
  const out: ResolvedTarget[] = [];
  const target = task.targets.find((t) => t.id === id);
  // A graded target with a declared presence (a hallucination category) is labelled present or absent, as the sheets give it.
  if (target)
    out.push(
      task.presence?.of.includes(id)
        ? { kind: "presence", task, id, declaration: target }
        : { kind: "score", task, id, declaration: target },
    );
  const metric = task.metrics.find((m) => m.id === id && m.reviewed);
  if (metric) out.push({ kind: "metric", task, id, declaration: metric });
  return out;
}

/** The declared target a `target` cell names, or why it names none (or several). */
export function resolveGenericTarget(
  name: string,
  tasks: readonly TaskDeclaration[],
): ResolvedTarget | { error: string } {
  const colon = name.indexOf(":");
  if (colon >= 0) {
    const task = tasks.find((t) => t.id === name.slice(0, colon));
    if (!task) return { error: `no task "${name.slice(0, colon)}" (tasks: ${tasks.map((t) => t.id).join(", ")})` };
    const found = candidates(task, name.slice(colon + 1));
    return (
      found[0] ?? {
        error: `the task ${task.id} declares no target "${name.slice(colon + 1)}" (it has ${[...task.targets.map((t) => t.id), ...task.metrics.filter((m) => m.reviewed).map((m) => m.id)].join(", ")})`,
      }
    );
  }
  const found = tasks.flatMap((task) => candidates(task, name));
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    return {
      error: `several tasks declare "${name}": write it as ${found.map((f) => `${f.task.id}:${name}`).join(" or ")}`,
    };
  const task = tasks.find((t) => t.id === name);
  if (task && task.targets.length === 1) return candidates(task, task.targets[0]!.id)[0]!;
  if (task)
    return {
      error: `the task ${task.id} has several targets: write ${task.targets.map((t) => `${task.id}:${t.id}`).join(" or ")}`,
    };
  return { error: `no task declares a target "${name}"` };
}

/** Whether the target belongs to an item (a caption, a question) rather than to the video. */
export function isItemTarget(resolved: ResolvedTarget): boolean {
  return resolved.task.subject !== "video";
}

/** The judgment target a label of `resolved` on this video (and item) is stored under. */
export function genericJudgmentTarget(resolved: ResolvedTarget, videoId: string, itemId: string): JudgmentTarget {
  if (resolved.kind === "presence")
    return {
      task: resolved.task.id,
      targetType: "presence",
      target: resolved.id,
      videoId,
      itemId: "",
      stepId: "",
      scopeIndex: 0,
      frameSetId: "",
    };
  if (resolved.kind === "metric") return metricTarget(resolved.task.id, videoId, itemId, resolved.id);
  // A target of an item is scored by the task's first metric step (as a judge score of that item is).
  return {
    task: resolved.task.id,
    targetType: SCORE_TARGET_TYPE,
    target: resolved.id,
    videoId,
    itemId,
    stepId: resolved.task.metricSteps?.[0] ?? "",
    scopeIndex: 0,
    frameSetId: "",
  };
}

/** Why the value is not one the target takes, or null. */
export function genericValueViolation(resolved: ResolvedTarget, value: number): string | null {
  if (resolved.kind === "presence")
    return value === 0 || value === 1
      ? null
      : `${resolved.id} is a presence label: 1 (present) or 0 (absent), not ${value}`;
  return scaleViolation(resolved.declaration, value);
}

function cellText(value: unknown): string | null {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

/** A line's cells by column, before they are checked. */
type RawCells = { line: number; cells: Record<string, string> };

/** A JSON Lines file's cells by line; a line that is not an object of strings and numbers is an issue. */
function readJsonlCells(body: string, issues: GenericIssue[]): RawCells[] {
  const raw: RawCells[] = [];
  body.split(/\r?\n/).forEach((lineText, index) => {
    const line = index + 1;
    if (!lineText.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(lineText);
    } catch {
      issues.push({
        row: line,
        column: "",
        cell: lineText.slice(0, 200),
        action: "skipped",
        message: "not a JSON object",
      });
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      issues.push({
        row: line,
        column: "",
        cell: lineText.slice(0, 200),
        action: "skipped",
        message: "not a JSON object",
      });
      return;
    }
    const cells: Record<string, string> = {};
    for (const column of GENERIC_COLUMNS) {
      const value = cellText((parsed as Record<string, unknown>)[column]);
      if (value === null) {
        issues.push({
          row: line,
          column,
          cell: JSON.stringify((parsed as Record<string, unknown>)[column]).slice(0, 200),
          action: "skipped",
          message: "must be a string or a number",
        });
        return;
      }
      cells[column] = value;
    }
    raw.push({ line, cells });
  });
  return raw;
}

/** A CSV file's header and cells by line; a file without the required columns is refused whole. */
function readCsvCells(body: string): { headers: string[]; raw: RawCells[] } {
  const raw: RawCells[] = [];
  const csv = parseCsv(body);
  if (!csv.ok) throw new GenericLabelFileError(`Not a readable CSV file: ${csv.error}`);
  const [header, ...records] = csv.records;
  const headers = (header?.fields ?? []).map((h) => h.trim());
  const missing = REQUIRED.filter((c) => !headers.includes(c));
  if (missing.length)
    throw new GenericLabelFileError(
      `The file lacks the column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (expected ${GENERIC_COLUMNS.join(", ")}; item is optional).`,
    );
  for (const record of records) {
    if (record.fields.every((f) => f.trim() === "")) continue;
    const cells: Record<string, string> = {};
    for (const column of GENERIC_COLUMNS) {
      const index = headers.indexOf(column);
      cells[column] = index >= 0 ? (record.fields[index] ?? "") : "";
    }
    raw.push({ line: record.line, cells });
  }
  return { headers, raw };
}

/** Reads rows; every row it cannot use is an issue with its line, and the others go on. */
export function parseGenericLabels(
  text: string,
  fileName: string,
): { rows: GenericLabelRow[]; issues: GenericIssue[]; headers: string[] } {
  const issues: GenericIssue[] = [];
  const body = stripByteOrderMark(text);
  const { headers, raw } =
    /\.(jsonl|ndjson)$/i.test(fileName) || (!/\.csv$/i.test(fileName) && body.trimStart().startsWith("{"))
      ? { headers: [...GENERIC_COLUMNS], raw: readJsonlCells(body, issues) }
      : readCsvCells(body);
  const rows: GenericLabelRow[] = [];
  for (const { line, cells } of raw) {
    const trimmed = Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, v.trim()])) as Record<
      (typeof GENERIC_COLUMNS)[number],
      string
    >;
    const empty = REQUIRED.find((c) => trimmed[c] === "");
    if (empty) {
      issues.push({ row: line, column: empty, cell: cells[empty] ?? "", action: "skipped", message: "empty" });
      continue;
    }
    const long = GENERIC_COLUMNS.find((c) => trimmed[c].length > MAX_FIELD);
    if (long) {
      issues.push({
        row: line,
        column: long,
        cell: trimmed[long].slice(0, 200),
        action: "skipped",
        message: `longer than ${MAX_FIELD} characters`,
      });
      continue;
    }
    const value = Number(trimmed.value);
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed.value) || !Number.isFinite(value)) {
      issues.push({ row: line, column: "value", cell: cells.value ?? "", action: "skipped", message: "not a number" });
      continue;
    }
    rows.push({
      line,
      video: trimmed.video,
      annotator: trimmed.annotator,
      target: trimmed.target,
      value,
      item: trimmed.item,
    });
  }
  return { rows, issues, headers };
}

export class GenericLabelFileError extends Error {}

/** Which columns of a wide file hold the video, the annotator and the item, and which target each other mapped column gives. */
export interface GenericColumnMap {
  video: string;
  annotator?: string | undefined;
  item?: string | undefined;
  /** Column → target (any name resolveGenericTarget takes: `r3_quality`, `caption_style:style`). */
  targets: Record<string, string>;
}

/** The scale a label of the target is given on: a presence target's is present (1) / absent (0). */
function labelScale(resolved: ResolvedTarget) {
  return resolved.kind === "presence"
    ? presenceTargetOf(resolved.task, resolved.id)!.scale
    : resolved.declaration.scale;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A wide cell's value: a number, or a label of the target's categorical scale by name (true/false for yes/no), or why not. */
export function genericCellValue(resolved: ResolvedTarget, text: string): number | { error: string } {
  if (NUMBER.test(text) && Number.isFinite(Number(text))) return Number(text);
  const scale = labelScale(resolved);
  if (scale.kind === "numeric") return { error: `not a number (${resolved.declaration.label} is numeric)` };
  const wanted = text.toLowerCase();
  const named = scale.values.find((v) => v.label.toLowerCase() === wanted);
  if (named) return named.value;
  const yesNo = scale.values.some((v) => v.value === 1) && scale.values.some((v) => v.value === 0);
  if (yesNo && (wanted === "true" || wanted === "false")) return wanted === "true" ? 1 : 0;
  return {
    error: `not a number or a label of ${resolved.declaration.label} (${scale.values.map((v) => v.label).join(", ")})`,
  };
}

/** A wide file's records: each with its line and its cells by column. */
interface WideRecords {
  // Columns are the file's text (`__proto__`, `constructor`…): cells by column in a Map.
  records: { line: number; cells: ReadonlyMap<string, string> }[];
  headers: string[];
  /** Lines that are not records (a JSONL line that is not an object), counted among the file's rows. */
  unreadable: number;
}

/** A wide JSONL file: one object per line; a line that is not an object, or a cell that is not text, is an issue. */
function readJsonlRecords(body: string, issues: GenericIssue[]): WideRecords {
  const records: WideRecords["records"] = [];
  let unreadable = 0;
  const keys = new Set<string>();
  body.split(/\r?\n/).forEach((lineText, index) => {
    const line = index + 1;
    if (!lineText.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(lineText);
    } catch {
      parsed = null;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      issues.push({
        row: line,
        column: "",
        cell: lineText.slice(0, 200),
        action: "skipped",
        message: "not a JSON object",
      });
      unreadable++;
      return;
    }
    const cells = new Map<string, string>();
    for (const [key, raw] of Object.entries(parsed)) {
      keys.add(key);
      const value = cellText(raw);
      if (value === null) {
        issues.push({
          row: line,
          column: key,
          cell: JSON.stringify(raw).slice(0, 200),
          action: "skipped",
          message: "must be a string, a number or true/false",
        });
        cells.set(key, "");
      } else cells.set(key, value);
    }
    records.push({ line, cells });
  });
  return { records, headers: [...keys], unreadable };
}

/** A wide CSV file with a header holding every mapped column (else an error for the whole file); blank rows are left out. */
function readCsvRecords(body: string, mapped: readonly string[]): WideRecords {
  const csv = parseCsv(body);
  if (!csv.ok) throw new GenericLabelFileError(`Not a readable CSV file: ${csv.error}`);
  const [header, ...rest] = csv.records;
  const headers = (header?.fields ?? []).map((h) => h.trim());
  const missing = mapped.filter((c) => !headers.includes(c));
  if (missing.length)
    throw new GenericLabelFileError(
      `The file lacks the mapped column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (its columns: ${headers.join(", ")}).`,
    );
  const records: WideRecords["records"] = [];
  for (const record of rest) {
    if (record.fields.every((f) => f.trim() === "")) continue;
    records.push({ line: record.line, cells: new Map(headers.map((h, i) => [h, record.fields[i] ?? ""])) });
  }
  return { records, headers, unreadable: 0 };
}

/**
 * Reads a wide file (CSV with a header, or JSONL objects) through its column map: one label per mapped target
 * column and row with a value. A mapped column the file lacks, or a target no task declares, is an error for the
 * whole file; every bad cell is an issue with its line and column, and the rest go on.
 */
export function parseWideGenericLabels(
  text: string,
  fileName: string,
  map: GenericColumnMap,
  tasks: readonly TaskDeclaration[],
): { rows: GenericLabelRow[]; issues: GenericIssue[]; headers: string[]; records: number } {
  const targets = Object.entries(map.targets).map(([column, name]) => {
    const resolved = resolveGenericTarget(name, tasks);
    if ("error" in resolved)
      throw new GenericLabelFileError(`The column "${column}" is mapped to "${name}": ${resolved.error}.`);
    return { column, name, resolved };
  });
  if (targets.length === 0) throw new GenericLabelFileError("Map at least one column to a target.");
  const special = [map.video, map.annotator, map.item].filter((c): c is string => !!c);
  const clash = targets.find((t) => special.includes(t.column));
  if (clash)
    throw new GenericLabelFileError(
      `The column "${clash.column}" cannot be both the video, annotator or item column and a target's.`,
    );
  const issues: GenericIssue[] = [];
  const body = stripByteOrderMark(text);
  const { records, headers, unreadable } =
    /\.(jsonl|ndjson)$/i.test(fileName) || (!/\.csv$/i.test(fileName) && body.trimStart().startsWith("{"))
      ? readJsonlRecords(body, issues)
      : readCsvRecords(body, [...special, ...targets.map((t) => t.column)]);
  const rows: GenericLabelRow[] = [];
  for (const { line, cells } of records) {
    const cell = (column: string | undefined) => (column ? (cells.get(column) ?? "").trim() : "");
    const video = cell(map.video);
    const annotator = cell(map.annotator);
    const item = cell(map.item);
    const empty = !video ? map.video : map.annotator && !annotator ? map.annotator : null;
    if (empty) {
      issues.push({ row: line, column: empty, cell: "", action: "skipped", message: "empty" });
      continue;
    }
    const long = [map.video, map.annotator, map.item].find((c) => c && cell(c).length > MAX_FIELD);
    if (long) {
      issues.push({
        row: line,
        column: long,
        cell: cell(long).slice(0, 200),
        action: "skipped",
        message: `longer than ${MAX_FIELD} characters`,
      });
      continue;
    }
    for (const target of targets) {
      const text = cell(target.column);
      if (!text) continue;
      const value = genericCellValue(target.resolved, text);
      if (typeof value !== "number") {
        issues.push({
          row: line,
          column: target.column,
          cell: text.slice(0, 200),
          action: "skipped",
          message: value.error,
        });
        continue;
      }
      rows.push({ line, column: target.column, video, annotator, target: target.name, value, item });
    }
  }
  return { rows, issues, headers, records: records.length + unreadable };
}
