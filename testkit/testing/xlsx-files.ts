/**
 * Hand-built .xlsx files for tests of the label-sheet limits: a zip writer (stored sizes can be told
 * to lie, as a bomb's do) and a one-sheet workbook around any sheet XML, deflated as a stream so that
 * a sheet of hundreds of MB never sits in the test's memory.
 */
import { crc32, createDeflateRaw, deflateRawSync } from "node:zlib";

export interface ZipPart {
  name: string;
  compressed: Buffer;
  size: number;
  crc: number;
  /** The size written into the zip's headers, when it should differ from the real one. */
  declaredSize?: number;
}

export function deflatedPart(name: string, content: string | Buffer): ZipPart {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, "utf8");
  return { name, compressed: deflateRawSync(bytes), size: bytes.length, crc: crc32(bytes) };
}

/** A part whose content is `head`, then `unit` `times` times, then `tail`, deflated chunk by chunk. */
export async function repeatedPart(
  name: string,
  head: string,
  unit: string,
  times: number,
  tail: string,
): Promise<ZipPart> {
  const deflater = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflater.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve, reject) => deflater.on("end", resolve).on("error", reject));
  let size = 0;
  let crc = 0;
  const write = async (text: string) => {
    const bytes = Buffer.from(text, "utf8");
    size += bytes.length;
    crc = crc32(bytes, crc);
    if (!deflater.write(bytes)) await new Promise((resolve) => deflater.once("drain", resolve));
  };
  await write(head);
  // Units in batches of about 1 MiB, so the writes stay few.
  const batch = Math.max(1, Math.floor((1024 * 1024) / Math.max(1, unit.length)));
  const block = unit.repeat(Math.min(batch, times));
  let left = times;
  while (left >= batch) {
    await write(block);
    left -= batch;
  }
  if (left > 0) await write(unit.repeat(left));
  await write(tail);
  deflater.end();
  await ended;
  return { name, compressed: Buffer.concat(out), size, crc };
}

/** A zip of deflated parts (method 8), with a central directory. */
export function zipOf(parts: readonly ZipPart[]): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, "utf8");
    const declared = part.declaredSize ?? part.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.compressed.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(part.crc >>> 0, 16);
    header.writeUInt32LE(part.compressed.length, 20);
    header.writeUInt32LE(declared, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    chunks.push(local, name, part.compressed);
    offset += local.length + name.length + part.compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, directory, end]);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

export const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
export const SHEET_TAIL = `</sheetData></worksheet>`;

/** A one-sheet workbook whose sheet is `sheet` (a part named xl/worksheets/sheet1.xml). */
export function xlsxWithSheet(sheet: ZipPart): Buffer {
  return zipOf([
    deflatedPart("[Content_Types].xml", CONTENT_TYPES),
    deflatedPart("_rels/.rels", ROOT_RELS),
    deflatedPart("xl/workbook.xml", WORKBOOK),
    deflatedPart("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
    sheet,
  ]);
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** One sheet row of inline-string cells, A, B, C…, at row `r`. */
export function sheetRow(r: number, cells: readonly (string | number)[]): string {
  const column = (i: number) => String.fromCharCode(65 + i);
  return `<row r="${r}">${cells
    .map((cell, i) =>
      typeof cell === "number"
        ? `<c r="${column(i)}${r}"><v>${cell}</v></c>`
        : `<c r="${column(i)}${r}" t="inlineStr"><is><t>${escapeXml(cell)}</t></is></c>`,
    )
    .join("")}</row>`;
}
