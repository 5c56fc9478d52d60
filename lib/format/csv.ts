/**
 * CSV cells for files people open in spreadsheets. RFC 4180 quoting (a cell with a comma, quote, CR
 * or LF is wrapped in quotes, quotes doubled), and formula-injection guarding: text that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return would be run as a formula by Excel, LibreOffice or
 * Google Sheets, so it gets a leading single quote (OWASP's advice). Numbers are written as numbers
 * (a negative number is data, not a formula); only text is guarded.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  let text = value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, CRLF-terminated as RFC 4180 says. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
