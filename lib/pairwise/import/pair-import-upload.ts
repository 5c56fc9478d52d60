/**
 * The upload of a pairwise import: a multipart body of `options` (JSON, pairImportOptionsSchema), an optional
 * `dryRun` field ("true" | "false", over the options'), and one `file` part. The file goes to a scratch file on disk as
 * it arrives, never whole into memory, and is refused with a 413 naming the limit once it passes `limitBytes` (at once
 * when the request's Content-Length already says so); the import then streams it from disk.
 */
import { createReadStream, createWriteStream } from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { z } from "zod";
import { PayloadTooLargeError, ValidationError } from "../../errors";
import { readMultipart } from "../../format/multipart";
import { pairImportOptionsSchema, type PairImportOptions } from "./import.types";

/** The multipart text fields beside the file, as the API describes them (`options` holds JSON). */
export const pairImportFieldsSchema = z.object({
  options: z.string().describe("JSON: the import's options (pairImportOptionsSchema)"),
  dryRun: z.enum(["true", "false"]).optional(),
});

/** The most a pairwise import file may hold: a million CSV votes with long paths take about 200 MiB. */
export const MAX_PAIR_IMPORT_BYTES = 512 * 1024 * 1024;
/** What a multipart body may hold beyond its file (the options, the part headers). */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

export interface PairImportUpload {
  options: PairImportOptions;
  fileName: string;
  /** The file's bytes as they are read from the scratch copy. */
  file: () => AsyncIterable<Uint8Array>;
  /** Removes the scratch copy. */
  dispose: () => Promise<void>;
}

function tooLarge(limitBytes: number) {
  return new PayloadTooLargeError(`A pairwise import file may be at most ${limitBytes} bytes.`, { limitBytes });
}

function parseOptions(fields: Record<string, string>): PairImportOptions {
  let json: unknown = {};
  if (fields.options !== undefined) {
    try {
      json = JSON.parse(fields.options);
    } catch {
      throw new ValidationError('The "options" field is not JSON.');
    }
  }
  if (json === null || typeof json !== "object" || Array.isArray(json))
    throw new ValidationError('The "options" field is a JSON object.');
  const dryRun = fields.dryRun;
  if (dryRun !== undefined && dryRun !== "true" && dryRun !== "false")
    throw new ValidationError('"dryRun" is "true" or "false".');
  return pairImportOptionsSchema.parse(dryRun === undefined ? json : { ...json, dryRun: dryRun === "true" });
}

export async function readPairImportUpload(
  request: Request,
  limitBytes: number = MAX_PAIR_IMPORT_BYTES,
): Promise<PairImportUpload> {
  const declared = request.headers.get("content-length")?.trim();
  if (declared && /^\d+$/.test(declared) && Number(declared) > limitBytes + MULTIPART_OVERHEAD_BYTES) {
    void request.body?.cancel().catch(() => undefined);
    throw tooLarge(limitBytes);
  }
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "framejury-pair-import-"));
  const dispose = () => fsp.rm(dir, { recursive: true, force: true });
  // A run-time scratch path, not a build input: turbopackIgnore keeps `next build` from tracing what it might name.
  const scratch = path.join(/* turbopackIgnore: true */ dir, "votes.upload");
  let fileName: string | null = null;
  try {
    const fields = await readMultipart(
      request,
      async (part) => {
        if (part.field !== "file") throw new ValidationError(`Unexpected file part "${part.field}": send "file".`);
        let size = 0;
        const bounded = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            size += chunk.length;
            callback(size > limitBytes ? tooLarge(limitBytes) : null, chunk);
          },
        });
        await pipeline(part.stream, bounded, createWriteStream(scratch));
        fileName = part.filename || "votes";
      },
      { maxFieldBytes: 64 * 1024 },
    );
    if (fileName === null) throw new ValidationError('Send the file as a multipart part named "file".');
    return {
      options: parseOptions(fields),
      fileName,
      file: () => createReadStream(scratch),
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
