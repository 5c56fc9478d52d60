/**
 * Limits checked on an .xlsx label sheet before exceljs reads it. An .xlsx is a zip of XML, and a few
 * MB of zip can unpack to hundreds of MB (a 3.7 MB sheet of 391 MB took the web process from 0.8 to 3.1
 * GB). So the zip's central directory is read first (entry count, declared sizes), then every entry is
 * inflated as a stream that counts its real bytes (declared sizes can lie) and, for worksheets, its rows
 * and cells, keeping nothing. Only a workbook within every limit is parsed, and then as a stream.
 */
import { createInflateRaw } from "node:zlib";
import type ExcelJS from "exceljs";
import { PayloadTooLargeError, ValidationError } from "../errors";

/**
 * exceljs, loaded when a workbook passed these limits is read: not with every module that can read one, which
 * the task registry brings into most of the app (it takes some 0.4 s to load).
 */
export async function loadExcelJs(): Promise<typeof ExcelJS> {
  return (await import("exceljs")).default;
}

/** Files in the zip (an .xlsx written by Excel or exceljs has about a dozen). */
export const MAX_XLSX_ENTRIES = 1_000;
/** Bytes of all the zip's files once unpacked (a 100,000-row label sheet unpacks to about 30 MiB). */
export const MAX_XLSX_UNPACKED_BYTES = 96 * 1024 * 1024;
/** Rows of all worksheets together (a published benchmark's label sheet has a few hundred). */
export const MAX_XLSX_ROWS = 200_000;
/** Cells of all worksheets together. */
export const MAX_XLSX_CELLS = 2_000_000;

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  localHeaderOffset: number;
}

export interface XlsxCounts {
  entries: number;
  unpackedBytes: number;
  rows: number;
  cells: number;
}

const notXlsx = (why: string) => new ValidationError(`The file is not a readable .xlsx workbook (${why}).`);
const MIB = 1024 * 1024;
const tooLarge = (what: string) =>
  new PayloadTooLargeError(`The workbook is too large: ${what}. Split the sheet, or import the labels as generic CSV.`);

/** The zip's entries, from its central directory. */
function zipEntries(file: Buffer): ZipEntry[] {
  // The end-of-central-directory record: 22 bytes plus a comment of at most 65,535.
  let eocd = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 0xffff); i--) {
    if (file.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw notXlsx("no zip directory");
  const count = file.readUInt16LE(eocd + 10);
  const directorySize = file.readUInt32LE(eocd + 12);
  const directoryOffset = file.readUInt32LE(eocd + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw notXlsx("a ZIP64 archive, which no label sheet needs");
  if (count > MAX_XLSX_ENTRIES) throw tooLarge(`${count} files in the zip, more than the limit of ${MAX_XLSX_ENTRIES}`);
  if (directoryOffset + directorySize > file.length) throw notXlsx("a truncated zip directory");
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw notXlsx("a damaged zip directory");
    const nameLength = file.readUInt16LE(at + 28);
    entries.push({
      method: file.readUInt16LE(at + 10),
      compressedSize: file.readUInt32LE(at + 20),
      declaredSize: file.readUInt32LE(at + 24),
      name: file.toString("utf8", at + 46, at + 46 + nameLength),
      localHeaderOffset: file.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  return entries;
}

function entryData(file: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== LOCAL_SIGNATURE)
    throw notXlsx(`a damaged entry ${entry.name}`);
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  if (start + entry.compressedSize > file.length) throw notXlsx(`a truncated entry ${entry.name}`);
  return file.subarray(start, start + entry.compressedSize);
}

/** Counts rows and cells in a worksheet's XML as it streams by (tags only: text holds `<` as `&lt;`). */
class SheetTagCounter {
  private tail = "";
  rows = 0;
  cells = 0;
  push(chunk: Buffer) {
    const text = this.tail + chunk.toString("latin1");
    for (const m of text.matchAll(/<(?:[A-Za-z_][\w.-]*:)?(row|c)[\s/>]/g)) {
      if (m[1] === "row") this.rows++;
      else this.cells++;
    }
    // A tag cut between chunks: keep the end after the last `<` (at most a short tag name) for the next one.
    const lastOpen = text.lastIndexOf("<");
    this.tail =
      lastOpen >= 0 && text.length - lastOpen < 64 && !/[\s/>]/.test(text.slice(lastOpen + 1))
        ? text.slice(lastOpen)
        : "";
  }
}

/** Inflates one entry, counting, and refuses once the whole workbook passes a limit. */
function inflateCounting(
  data: Buffer,
  totals: XlsxCounts,
  counter: SheetTagCounter | null,
  name: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const inflater = createInflateRaw();
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) {
        inflater.destroy();
        reject(error);
      } else resolve();
    };
    inflater.on("data", (chunk: Buffer) => {
      totals.unpackedBytes += chunk.length;
      if (totals.unpackedBytes > MAX_XLSX_UNPACKED_BYTES)
        return settle(tooLarge(`it unpacks to more than the limit of ${MAX_XLSX_UNPACKED_BYTES / MIB} MiB`));
      if (!counter) return;
      const rowsBefore = counter.rows;
      const cellsBefore = counter.cells;
      counter.push(chunk);
      totals.rows += counter.rows - rowsBefore;
      totals.cells += counter.cells - cellsBefore;
      if (totals.rows > MAX_XLSX_ROWS)
        settle(tooLarge(`more than the limit of ${MAX_XLSX_ROWS.toLocaleString("en")} rows`));
      else if (totals.cells > MAX_XLSX_CELLS)
        settle(tooLarge(`more than the limit of ${MAX_XLSX_CELLS.toLocaleString("en")} cells`));
    });
    inflater.on("end", () => settle());
    inflater.on("error", () => settle(notXlsx(`the entry ${name} does not inflate`)));
    inflater.end(data);
  });
}

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;

/**
 * Refuses a workbook over any limit (413 naming it) or not a zip (400), reading and inflating its
 * entries without keeping them: memory stays at the file plus zlib's buffers. Returns what it counted.
 */
export async function checkXlsxLimits(bytes: Uint8Array): Promise<XlsxCounts> {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = zipEntries(file);
  const declared = entries.reduce((sum, e) => sum + e.declaredSize, 0);
  if (declared > MAX_XLSX_UNPACKED_BYTES) {
    throw tooLarge(
      `its files unpack to ${Math.ceil(declared / MIB)} MiB, more than the limit of ${MAX_XLSX_UNPACKED_BYTES / MIB} MiB`,
    );
  }
  const totals: XlsxCounts = { entries: entries.length, unpackedBytes: 0, rows: 0, cells: 0 };
  for (const entry of entries) {
    const data = entryData(file, entry);
    const counter = WORKSHEET.test(entry.name) ? new SheetTagCounter() : null;
    if (entry.method === 0) {
      totals.unpackedBytes += data.length;
      if (totals.unpackedBytes > MAX_XLSX_UNPACKED_BYTES)
        throw tooLarge(`it unpacks to more than the limit of ${MAX_XLSX_UNPACKED_BYTES / MIB} MiB`);
      if (counter) {
        counter.push(data);
        totals.rows += counter.rows;
        totals.cells += counter.cells;
      }
    } else if (entry.method === 8) {
      await inflateCounting(data, totals, counter, entry.name);
    } else {
      throw notXlsx(`the entry ${entry.name} uses zip method ${entry.method}`);
    }
  }
  if (totals.rows > MAX_XLSX_ROWS) throw tooLarge(`more than the limit of ${MAX_XLSX_ROWS.toLocaleString("en")} rows`);
  if (totals.cells > MAX_XLSX_CELLS)
    throw tooLarge(`more than the limit of ${MAX_XLSX_CELLS.toLocaleString("en")} cells`);
  return totals;
}
