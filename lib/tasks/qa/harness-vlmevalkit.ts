/**
 * VLMEvalKit's per-model prediction file (`<model>_<dataset>.tsv`, or the `.xlsx` it also writes) read as harness
 * rows: a header row, then `index`, `video`, `question`, the options `A`…, `answer` and `prediction`.
 */
import type ExcelJS from "exceljs";
import { ValidationError } from "../../errors";
import { parseCsv } from "../../import/csv";
import { checkXlsxLimits, loadExcelJs } from "../../label-sets/xlsx-limits";
import { answerLetter, asText, LETTERS, type HarnessRow, type HarnessRowError } from "./harness-rows";

/** One row of a table file (TSV or a worksheet): its line (the sheet's row number) and its cells. */
interface TableRow {
  line: number;
  cells: (string | null)[];
}

/** VLMEvalKit's prediction table (its TSV, or the first worksheet of its `.xlsx`): a header row, then one question per row. */
function parseVlmEvalKitTable(table: readonly TableRow[]): { rows: HarnessRow[]; errors: HarnessRowError[] } {
  const [head, ...body] = table;
  const header = (head?.cells ?? []).map((c) => (c ?? "").trim().toLowerCase());
  const column = (name: string) => header.indexOf(name);
  const missing = ["question", "prediction"].filter((name) => column(name) < 0);
  if (missing.length)
    return {
      rows: [],
      errors: [
        {
          line: head?.line ?? 1,
          message: `the header has no ${missing.map((m) => `"${m}"`).join(", ")} column (VLMEvalKit writes index, video, question, A…, answer, prediction)`,
        },
      ],
    };
  const rows: HarnessRow[] = [];
  const errors: HarnessRowError[] = [];
  for (const { line, cells } of body) {
    if (cells.every((c) => c === null || c.trim() === "")) continue;
    const cell = (name: string) => (column(name) >= 0 ? asText(cells[column(name)]) : null);
    const question = cell("question");
    const prediction = cell("prediction");
    const problems: string[] = [];
    if (prediction === null) problems.push("no prediction: the prediction cell is empty");
    if (question === null) problems.push("no question: the question cell is empty");
    if (problems.length) errors.push(...problems.map((message) => ({ line, message })));
    else {
      const lettered: Record<string, string> = {};
      for (const letter of LETTERS)
        if (cell(letter.toLowerCase()) !== null) lettered[letter] = cell(letter.toLowerCase())!.trim();
      const options = Object.keys(lettered).length >= 2 ? lettered : null;
      const answer = cell("answer");
      rows.push({
        line,
        id: cell("index"),
        video: cell("video") ?? cell("video_path"),
        question,
        prediction: prediction!,
        options,
        answer: options ? answerLetter(answer, options) : answer,
      });
    }
  }
  return { rows, errors };
}

/**
 * VLMEvalKit's prediction TSV: a header row, then one question per record. VLMEvalKit writes it with pandas
 * (`to_csv(sep="\t")`, every cell or only those holding a tab, line break or quote in `"…"`, quotes doubled), so a
 * multi-line question is one quoted cell: read as delimited text, each row's line is the line it starts on.
 */
export function parseVlmEvalKitTsv(text: string): { rows: HarnessRow[]; errors: HarnessRowError[] } {
  const parsed = parseCsv(text, { delimiter: "\t" });
  if (!parsed.ok) {
    const match = /^line (\d+): (.*)$/s.exec(parsed.error);
    return {
      rows: [],
      errors: [
        { line: match ? Number(match[1]) : 1, message: `not a readable TSV file: ${match ? match[2]! : parsed.error}` },
      ],
    };
  }
  return parseVlmEvalKitTable(
    parsed.records.map(({ line, fields }) => ({ line, cells: fields.length === 1 && fields[0] === "" ? [] : fields })),
  );
}

function cellText(value: ExcelJS.CellValue): string | null {
  if (value === null || value === undefined) return null;
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

/** An `.xlsx` is a zip: its first bytes are "PK\x03\x04". */
export const isXlsx = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * VLMEvalKit's prediction `.xlsx` (`<model>_<dataset>.xlsx`, the same columns as its TSV) from its first
 * worksheet; each row's line is its row number in the sheet. The workbook passes xlsx-limits.ts first.
 */
export async function parseVlmEvalKitXlsx(
  bytes: Uint8Array,
): Promise<{ rows: HarnessRow[]; errors: HarnessRowError[] }> {
  await checkXlsxLimits(bytes);
  const excel = await loadExcelJs();
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as never);
  } catch (error) {
    throw new ValidationError(
      `The file is not a readable .xlsx workbook (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { rows: [], errors: [{ line: 1, message: "the workbook has no worksheet" }] };
  const table: TableRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: (string | null)[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value));
    table.push({ line: number, cells });
  });
  return parseVlmEvalKitTable(table);
}
