/**
 * T2VHaluBench's label sheet (.xlsx, read with exceljs): one row per video with `Example` (the file
 * name), `Is_Hallucination` and `Is_Prompt_Consistency` (1/0), `Static_Hallucination` and
 * `Dynamic_Hallucination` (category codes such as `s1, s7`, or `-` for none) and `model`.
 *
 * The published sheet has mistakes (a static code in the dynamic column, `.` between codes, stray
 * spaces). What is unambiguous is read, and every cell read other than as written, or skipped, is
 * listed with its row, so the user sees exactly what the import assumed.
 */
import { Readable } from "node:stream";
import type ExcelJS from "exceljs";
import { log } from "../../observability/logger";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { isAppError, ValidationError } from "../../errors";
import type { LabelSetImportInput, SheetIssue } from "../../task-modules/label-set-format";
import { createLabelSet, inChunks, requireFreeName, sha256Of, type LabelJudgment } from "../../label-sets/label-sets";
import { checkXlsxLimits, loadExcelJs } from "../../label-sets/xlsx-limits";
import { metricTarget, presenceTarget } from "../../reviews/judgment-key";
import { type MatchableVideo, videoMatcher, videoNameCandidates } from "../../import/video-matcher";
import { DYNAMIC_CATEGORY_IDS, INCONSISTENCY_CATEGORY, STATIC_CATEGORY_IDS } from "./schemas";

export const T2VHALUBENCH_COLUMNS = {
  example: "Example",
  hallucination: "Is_Hallucination",
  promptConsistency: "Is_Prompt_Consistency",
  static: "Static_Hallucination",
  dynamic: "Dynamic_Hallucination",
  model: "model",
} as const;

export interface T2vHaluBenchRow {
  row: number;
  example: string;
  model: string | null;
  /** The mapping column's value, when the user maps videos by one. */
  mapping: string | null;
  hallucination: 0 | 1 | null;
  promptConsistency: 0 | 1 | null;
  /** Each category code with 1 (present) or 0 (absent); a code is missing when its column could not be read. */
  categories: Record<string, 0 | 1>;
}

export interface T2vHaluBenchSheet {
  rows: T2vHaluBenchRow[];
  issues: SheetIssue[];
  /** Every header of the sheet, for choosing a mapping column. */
  headers: string[];
}

const STATIC = new Set<string>(STATIC_CATEGORY_IDS);
const DYNAMIC = new Set<string>(DYNAMIC_CATEGORY_IDS);

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    if ("richText" in value) return value.richText.map((r) => r.text).join("");
    if ("result" in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
    if ("text" in value) return String(value.text);
  }
  return String(value);
}

/** Reads one category cell of `column` ("static" or "dynamic"): the codes it names, and what had to be interpreted. */
export function parseCategoryCell(
  raw: string,
  column: "static" | "dynamic",
): { present: string[]; complete: boolean; interpreted: string[]; skipped: string[] } {
  const interpreted: string[] = [];
  const skipped: string[] = [];
  const text = raw.trim();
  if (text !== raw) interpreted.push("stray spaces around the cell");
  if (text === "")
    return { present: [], complete: false, interpreted, skipped: ["empty cell: its categories are not labelled"] };
  if (text === "-") return { present: [], complete: true, interpreted, skipped };
  if (/\.\s*/.test(text)) interpreted.push("'.' read as ',' between codes");
  if (/;/.test(text)) interpreted.push("';' read as ',' between codes");
  const tokens = text.split(/[,.;]/);
  const present: string[] = [];
  let complete = true;
  for (const token of tokens) {
    const trimmed = token.trim();
    if (trimmed === "") {
      interpreted.push("an empty code between separators ignored");
      continue;
    }
    let code = trimmed.replace(/\s+/g, "").toLowerCase();
    if (code !== trimmed.toLowerCase()) interpreted.push(`stray spaces inside "${trimmed}"`);
    if (code !== trimmed.replace(/\s+/g, "")) interpreted.push(`"${trimmed}" read as "${code}"`);
    code = code.replace(/^([sd])0+(\d)/, "$1$2");
    if (!STATIC.has(code) && !DYNAMIC.has(code)) {
      skipped.push(`"${trimmed}" is no category code: the column's other categories are not labelled`);
      complete = false;
      continue;
    }
    const own = column === "static" ? STATIC : DYNAMIC;
    if (!own.has(code))
      interpreted.push(
        `${code} is a ${column === "static" ? "dynamic" : "static"} code: read as present in its own kind`,
      );
    if (present.includes(code)) interpreted.push(`${code} listed twice`);
    else present.push(code);
  }
  return { present, complete, interpreted: [...new Set(interpreted)], skipped };
}

function parseBinary(raw: string): { value: 0 | 1 | null; interpreted: string | null } {
  const text = raw.trim();
  if (text === "1" || text === "0")
    return { value: text === "1" ? 1 : 0, interpreted: text !== raw ? "stray spaces around the cell" : null };
  return { value: null, interpreted: null };
}

/**
 * Parses the sheet (the first worksheet with an `Example` header). Throws ValidationError when it is no
 * T2VHaluBench sheet, and PayloadTooLargeError (413) when the workbook passes a limit of xlsx-limits.ts,
 * checked before exceljs reads anything; exceljs then streams it row by row.
 */
export async function parseT2vHaluBenchSheet(
  file: Uint8Array,
  options: { mappingColumn?: string | null } = {},
): Promise<T2vHaluBenchSheet> {
  await checkXlsxLimits(file);
  const excel = await loadExcelJs();
  const found = await readT2vHaluBenchSheet(excel, file, options.mappingColumn ?? null);
  if (found) return found;
  // Read once more before saying so: in one CI run exceljs's stream reader gave no worksheet header for a workbook that
  // it read whole every other time (not reproduced in thousands of reads here, under load or not). A sheet that
  // truly lacks the header costs a second read; a reader that missed it is logged, so the next one has a trace.
  const again = await readT2vHaluBenchSheet(excel, file, options.mappingColumn ?? null);
  if (again) {
    log().warn(
      { bytes: file.byteLength, rows: again.rows.length },
      "exceljs read no T2VHaluBench header the first time and found it on a second read",
    );
    return again;
  }
  throw new ValidationError(
    `No worksheet has the header "${T2VHALUBENCH_COLUMNS.example}" in its first row: is this T2VHaluBench's label sheet?`,
  );
}

/** One streamed read of the workbook: the first worksheet with an `Example` header, parsed; null when none has it. */
async function readT2vHaluBenchSheet(
  excel: typeof ExcelJS,
  file: Uint8Array,
  mappingColumn: string | null,
): Promise<T2vHaluBenchSheet | null> {
  const reader = new excel.stream.xlsx.WorkbookReader(
    Readable.from([Buffer.from(file.buffer, file.byteOffset, file.byteLength)]),
    {
      worksheets: "emit",
      sharedStrings: "cache",
      hyperlinks: "ignore",
      styles: "ignore",
      entries: "ignore",
    },
  );
  // exceljs writes a workbook's files in no fixed order, and its reader looks up a worksheet's name in
  // the workbook's model, which it has not read yet when xl/workbook.xml comes after the sheet: an empty
  // model until then (the sheet is read, nameless).
  (reader as unknown as { model?: { sheets: unknown[] } }).model = { sheets: [] };
  let found: T2vHaluBenchSheet | null = null;
  try {
    for await (const sheet of reader) {
      let parser: SheetParser | null = null;
      let first = true;
      for await (const row of sheet) {
        if (found) continue; // a later sheet: read through (the zip streams on), not parsed
        if (first) {
          first = false;
          if (row.number === 1)
            parser = SheetParser.fromHeader(
              row,
              (sheet as unknown as { name?: string }).name ?? "Sheet",
              mappingColumn,
            );
        }
        if (parser && row.number > 1) parser.add(row);
      }
      if (parser && !found) found = parser.result();
    }
  } catch (error) {
    if (isAppError(error)) throw error; // an app error from any copy of lib/errors.ts (its 413 stays a 413)
    throw new ValidationError(
      `The file is not a readable .xlsx workbook (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  return found;
}

/** Reads one worksheet's rows after its header row. */
class SheetParser {
  private readonly rows: T2vHaluBenchRow[] = [];
  private readonly issues: SheetIssue[] = [];

  private constructor(
    private readonly headers: string[],
    private readonly columnOf: Map<string, number>,
    private readonly mappingColumn: string | null,
    private readonly mappingCol: number | undefined,
  ) {}

  /** The parser of a sheet whose first row is `headerRow`, or null when it has no `Example` header. */
  static fromHeader(headerRow: ExcelJS.Row, sheetName: string, mappingColumn: string | null): SheetParser | null {
    const headers: string[] = [];
    const columnOf = new Map<string, number>();
    headerRow.eachCell({ includeEmpty: false }, (cell, col) => {
      const name = cellText(cell.value).trim();
      headers.push(name);
      if (!columnOf.has(name.toLowerCase())) columnOf.set(name.toLowerCase(), col);
    });
    if (!columnOf.has(T2VHALUBENCH_COLUMNS.example.toLowerCase())) return null;
    const missing = Object.values(T2VHALUBENCH_COLUMNS).filter((c) => c !== "model" && !columnOf.has(c.toLowerCase()));
    if (missing.length)
      throw new ValidationError(
        `The sheet "${sheetName}" lacks the column(s) ${missing.join(", ")} (found: ${headers.join(", ")}).`,
      );
    const mappingCol = mappingColumn ? columnOf.get(mappingColumn.trim().toLowerCase()) : undefined;
    if (mappingColumn && mappingCol === undefined)
      throw new ValidationError(`The sheet has no mapping column "${mappingColumn}" (found: ${headers.join(", ")}).`);
    return new SheetParser(headers, columnOf, mappingColumn, mappingCol);
  }

  result(): T2vHaluBenchSheet {
    return { rows: this.rows, issues: this.issues, headers: this.headers };
  }

  add(row: ExcelJS.Row): void {
    const r = row.number;
    const { columnOf, issues, mappingCol } = this;
    const text = (column: string) => {
      const col = columnOf.get(column.toLowerCase());
      return col === undefined ? "" : cellText(row.getCell(col).value);
    };
    const allEmpty = Object.values(T2VHALUBENCH_COLUMNS).every((c) => text(c).trim() === "");
    if (allEmpty) return;
    const issue = (column: string, cell: string, action: SheetIssue["action"], message: string) =>
      issues.push({ row: r, column, cell, action, message });
    const rawExample = text(T2VHALUBENCH_COLUMNS.example);
    const example = rawExample.trim();
    if (!example) {
      issue(T2VHALUBENCH_COLUMNS.example, rawExample, "skipped", "no file name: the row is not imported");
      return;
    }
    if (example !== rawExample)
      issue(T2VHALUBENCH_COLUMNS.example, rawExample, "interpreted", "stray spaces around the cell");
    const binary = (column: string): 0 | 1 | null => {
      const raw = text(column);
      const parsed = parseBinary(raw);
      if (parsed.value === null)
        issue(column, raw, "skipped", raw.trim() === "" ? "empty cell: not labelled" : "not 1 or 0: not labelled");
      else if (parsed.interpreted) issue(column, raw, "interpreted", parsed.interpreted);
      return parsed.value;
    };
    const hallucination = binary(T2VHALUBENCH_COLUMNS.hallucination);
    const promptConsistency = binary(T2VHALUBENCH_COLUMNS.promptConsistency);
    const categories: Record<string, 0 | 1> = {};
    const presentCodes = new Set<string>();
    const readColumns = new Set<"static" | "dynamic">();
    for (const kind of ["static", "dynamic"] as const) {
      const column = T2VHALUBENCH_COLUMNS[kind];
      const raw = text(column);
      const parsed = parseCategoryCell(raw, kind);
      for (const m of parsed.interpreted) issue(column, raw, "interpreted", m);
      for (const m of parsed.skipped) issue(column, raw, "skipped", m);
      for (const code of parsed.present) presentCodes.add(code);
      if (parsed.complete) readColumns.add(kind);
    }
    // A column read completely says which of its kind are absent; a code found elsewhere is present either way.
    for (const [kind, ids] of [
      ["static", STATIC_CATEGORY_IDS],
      ["dynamic", DYNAMIC_CATEGORY_IDS],
    ] as const) {
      for (const id of ids) {
        if (presentCodes.has(id)) categories[id] = 1;
        else if (readColumns.has(kind)) categories[id] = 0;
      }
    }
    const model = text(T2VHALUBENCH_COLUMNS.model).trim() || null;
    const mapping = mappingCol === undefined ? null : cellText(row.getCell(mappingCol).value).trim() || null;
    if (mappingCol !== undefined && !mapping)
      issue(this.mappingColumn!, "", "skipped", "empty mapping cell: the row is not imported");
    this.rows.push({ row: r, example, model, mapping, hallucination, promptConsistency, categories });
  }
}

// ---------- Importing the sheet as a label set ----------

export interface LabelSetPlan {
  name: string;
  fileName: string;
  sha256: string;
  rows: number;
  /** Rows matched to a video of the project. */
  matchedVideos: number;
  /** Judgments to create, by target type. */
  judgments: Record<string, number>;
  /** Every cell interpreted or skipped, and every row not matched to a video. */
  issues: SheetIssue[];
  headers: string[];
}

/** Every video of the project a key could name: by a path it ends with, or by its file name. */
async function candidateVideos(prisma: PrismaClient, projectId: string, keys: string[]): Promise<MatchableVideo[]> {
  const candidates = videoNameCandidates(keys);
  return [
    ...new Map(
      [
        ...(await inChunks(candidates.paths, (chunk) =>
          prisma.video.findMany({
            where: { projectId, relativePath: { in: chunk } },
            select: { id: true, fileName: true, relativePath: true },
          }),
        )),
        ...(await inChunks(candidates.fileNames, (chunk) =>
          prisma.video.findMany({
            where: { projectId, fileName: { in: chunk } },
            select: { id: true, fileName: true, relativePath: true },
          }),
        )),
      ].map((v) => [v.id, v]),
    ).values(),
  ];
}

/** The hallucination task's judgments one sheet row gives its matched video. */
function rowJudgments(row: T2vHaluBenchRow, videoId: string): LabelJudgment[] {
  const judgments: LabelJudgment[] = [];
  if (row.hallucination !== null)
    judgments.push({
      target: metricTarget("hallucination", videoId, "", "verdict"),
      value: row.hallucination,
      annotator: null,
    });
  // The sheet says "consistent"; the task's target is prompt inconsistency, present when not consistent.
  if (row.promptConsistency !== null)
    judgments.push({
      target: presenceTarget("hallucination", videoId, INCONSISTENCY_CATEGORY),
      value: 1 - row.promptConsistency,
      annotator: null,
    });
  for (const [code, value] of Object.entries(row.categories))
    judgments.push({ target: presenceTarget("hallucination", videoId, code), value, annotator: null });
  return judgments;
}

/** Reads the sheet and plans the label set; imports it unless `dryRun`. Nothing is written on a dry run. */
export async function importT2vHaluBench(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  input: LabelSetImportInput,
) {
  const { projectId } = access;
  const name = input.name.trim();
  if (!name) throw new ValidationError("Name the label set.");
  await requireFreeName(prisma, projectId, name);
  const sheet = await parseT2vHaluBenchSheet(input.file, {
    mappingColumn: input.match.by === "column" ? input.match.column : null,
  });
  const issues = [...sheet.issues];
  const keys = sheet.rows.flatMap((r) => (input.match.by === "column" ? (r.mapping ? [r.mapping] : []) : [r.example]));
  const videos = await candidateVideos(prisma, projectId, keys);
  const matchVideo = videoMatcher(videos, { by: ["path", "file name"] });
  const matchColumn = input.match.by === "column" ? input.match.column : "Example";
  const judgments: LabelJudgment[] = [];
  const matched = new Set<string>();
  for (const row of sheet.rows) {
    const key = input.match.by === "column" ? row.mapping : row.example;
    if (!key) continue;
    // A path names one video; a bare file name only when exactly one video has it.
    const match = matchVideo(key);
    if (!("video" in match)) {
      issues.push({
        row: row.row,
        column: matchColumn,
        cell: key,
        action: "skipped",
        message:
          "ambiguous" in match
            ? `${match.ambiguous.length} videos of the project have this file name: use a mapping column with their paths`
            : "no video of the project has this file name or path",
      });
      continue;
    }
    const { video } = match;
    if (matched.has(video.id)) {
      issues.push({
        row: row.row,
        column: matchColumn,
        cell: key,
        action: "skipped",
        message: "an earlier row already labels this video",
      });
      continue;
    }
    matched.add(video.id);
    judgments.push(...rowJudgments(row, video.id));
  }
  issues.sort((a, b) => a.row - b.row);
  const counts: Record<string, number> = {};
  for (const j of judgments) counts[j.target.targetType] = (counts[j.target.targetType] ?? 0) + 1;
  const sha256 = sha256Of(input.file);
  const plan: LabelSetPlan = {
    name,
    fileName: input.fileName,
    sha256,
    rows: sheet.rows.length,
    matchedVideos: matched.size,
    judgments: counts,
    issues,
    headers: sheet.headers,
  };
  if (input.dryRun) return { dryRun: true as const, plan, labelSet: null };
  if (judgments.length === 0)
    throw new ValidationError("Nothing to import: no row of the sheet matched a video of the project.");
  const labelSet = await createLabelSet(
    prisma,
    access,
    { name, format: "t2vhalubench", fileName: input.fileName, sha256, citation: input.citation?.trim() ?? "" },
    judgments,
  );
  return { dryRun: false as const, plan, labelSet };
}
