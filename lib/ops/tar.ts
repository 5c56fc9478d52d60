import fs from "node:fs";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";

/**
 * A minimal POSIX tar (ustar with pax headers for long names and large sizes), written and read by
 * FrameJury itself so that a backup needs nothing but Node.js. Any tar tool can list and extract
 * the archives; reading takes regular files and folders (ustar, pax and GNU long names).
 */

const BLOCK = 512;
const MAX_OCTAL_SIZE = 0o77777777777; // 11 octal digits

export class TarWriter {
  private position = 0;

  private constructor(private readonly handle: fsp.FileHandle) {}

  static async create(file: string): Promise<TarWriter> {
    return new TarWriter(await fsp.open(file, "wx", 0o600));
  }

  /** Adds a file whose bytes come from `body` (a Buffer, or a stream of exactly `size` bytes). */
  async add(
    name: string,
    body: Buffer | Readable,
    options: { size?: number; mode?: number; mtime?: Date } = {},
  ): Promise<void> {
    const size = Buffer.isBuffer(body) ? body.length : options.size;
    if (size === undefined) throw new Error(`tar: the size of ${name} is needed for a stream`);
    await this.header(name, size, "0", options.mode ?? 0o644, options.mtime ?? new Date());
    let written = 0;
    if (Buffer.isBuffer(body)) {
      await this.write(body);
      written = body.length;
    } else {
      for await (const chunk of body) {
        const bytes = chunk as Buffer;
        written += bytes.length;
        if (written > size) throw new Error(`tar: ${name} grew while being archived`);
        await this.write(bytes);
      }
    }
    if (written !== size) throw new Error(`tar: ${name} has ${written} bytes, expected ${size}`);
    await this.pad();
  }

  /** Ends the archive (two zero blocks) and closes the file. */
  async close(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    await this.handle.close();
  }

  async abort(): Promise<void> {
    await this.handle.close().catch(() => {});
  }

  private async header(name: string, size: number, type: string, mode: number, mtime: Date): Promise<void> {
    const nameBytes = Buffer.from(name, "utf8");
    const pax: string[] = [];
    if (nameBytes.length > 100 || /[^\x20-\x7e]/.test(name)) pax.push(paxRecord("path", name));
    if (size > MAX_OCTAL_SIZE) pax.push(paxRecord("size", String(size)));
    if (pax.length > 0) {
      const body = Buffer.from(pax.join(""), "utf8");
      await this.write(
        ustarHeader(
          `PaxHeaders/${nameBytes
            .subarray(0, 80)
            .toString("latin1")
            .replace(/[^\x20-\x7e]/g, "_")}`,
          body.length,
          "x",
          0o644,
          mtime,
        ),
      );
      await this.write(body);
      await this.pad();
    }
    await this.write(
      ustarHeader(
        nameBytes.length > 100 ? nameBytes.subarray(0, 100).toString("latin1") : name,
        Math.min(size, MAX_OCTAL_SIZE),
        type,
        mode,
        mtime,
      ),
    );
  }

  private async write(bytes: Buffer): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset, this.position);
      offset += bytesWritten;
      this.position += bytesWritten;
    }
  }

  private async pad(): Promise<void> {
    const rest = this.position % BLOCK;
    if (rest !== 0) await this.write(Buffer.alloc(BLOCK - rest));
  }
}

function paxRecord(key: string, value: string): string {
  const text = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(text) + 1;
  while (String(length).length + Buffer.byteLength(text) !== length)
    length = String(length).length + Buffer.byteLength(text);
  return `${length}${text}`;
}

function ustarHeader(name: string, size: number, type: string, mode: number, mtime: Date): Buffer {
  const header = Buffer.alloc(BLOCK);
  const put = (offset: number, length: number, value: string) => header.write(value, offset, length, "latin1");
  const octal = (offset: number, length: number, value: number) =>
    put(offset, length - 1, value.toString(8).padStart(length - 1, "0"));
  put(0, 100, name);
  octal(100, 8, mode);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, size);
  octal(136, 12, Math.floor(mtime.getTime() / 1000));
  put(148, 8, "        ");
  put(156, 1, type);
  put(257, 6, "ustar\0");
  put(263, 2, "00");
  let sum = 0;
  for (const byte of header) sum += byte;
  put(148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

export interface TarEntry {
  name: string;
  size: number;
  type: "file" | "directory";
  /** Where the entry's bytes start in the archive. */
  offset: number;
}

/** Lists an archive's files and folders (reading only the headers). */
export async function listTar(file: string): Promise<TarEntry[]> {
  const handle = await fsp.open(file, "r");
  try {
    const { size: total } = await handle.stat();
    const entries: TarEntry[] = [];
    const header = Buffer.alloc(BLOCK);
    let position = 0;
    let pending: { path?: string; size?: number } = {};
    while (position + BLOCK <= total) {
      await readExactly(handle, header, position);
      if (header.every((byte) => byte === 0)) break;
      if (!checksumMatches(header)) throw new Error(`Not a tar archive, or damaged at byte ${position}.`);
      const type = String.fromCharCode(header[156]!);
      const rawSize = readOctal(header, 124, 12);
      const dataStart = position + BLOCK;
      const size = pending.size ?? rawSize;
      const next =
        dataStart + Math.ceil((type === "x" || type === "g" || type === "L" ? rawSize : size) / BLOCK) * BLOCK;
      if (type === "x" || type === "L") {
        const body = Buffer.alloc(rawSize);
        await readExactly(handle, body, dataStart);
        pending =
          type === "L"
            ? { ...pending, path: body.toString("utf8").replace(/\0+$/, "") }
            : { ...pending, ...parsePax(body) };
      } else if (type === "g") {
        // Global pax headers carry nothing FrameJury reads.
      } else {
        const prefix = readString(header, 345, 155);
        const name = pending.path ?? (prefix ? `${prefix}/${readString(header, 0, 100)}` : readString(header, 0, 100));
        if (type === "0" || type === "\0") entries.push({ name, size, type: "file", offset: dataStart });
        else if (type === "5")
          entries.push({ name: name.replace(/\/$/, ""), size: 0, type: "directory", offset: dataStart });
        pending = {};
      }
      if (next > total) throw new Error(`The archive is cut short at byte ${total}.`);
      position = next;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/** Streams one entry's bytes. */
export function readTarEntry(file: string, entry: TarEntry): Readable {
  if (entry.size === 0) return Readable.from([]);
  return fs.createReadStream(file, { start: entry.offset, end: entry.offset + entry.size - 1 });
}

async function readExactly(handle: fsp.FileHandle, buffer: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, position + offset);
    if (bytesRead === 0) throw new Error(`The archive is cut short at byte ${position + offset}.`);
    offset += bytesRead;
  }
}

function checksumMatches(header: Buffer): boolean {
  const stored = readOctal(header, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum === stored;
}

function readString(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

function readOctal(header: Buffer, offset: number, length: number): number {
  const text = readString(header, offset, length).trim();
  return text ? parseInt(text, 8) : 0;
}

function parsePax(body: Buffer): { path?: string; size?: number } {
  const result: { path?: string; size?: number } = {};
  let position = 0;
  while (position < body.length) {
    const space = body.indexOf(0x20, position);
    if (space === -1) break;
    const length = Number(body.subarray(position, space).toString("latin1"));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = body.subarray(space + 1, position + length - 1).toString("utf8");
    const equals = record.indexOf("=");
    const key = record.slice(0, equals);
    const value = record.slice(equals + 1);
    if (key === "path") result.path = value;
    if (key === "size") result.size = Number(value);
    position += length;
  }
  return result;
}
