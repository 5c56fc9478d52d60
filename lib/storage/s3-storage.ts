import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type _Object,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import {
  assertSafeKey,
  assertSafeUploadId,
  StorageIntegrityError,
  StorageNotFoundError,
  StorageOffsetError,
  StorageTooLargeError,
  type ObjectStorage,
  type StoredObject,
} from "./object-storage";
import type { S3StorageConfig } from "./storage-config";

const MiB = 1024 * 1024;
/** Multipart part size: S3 wants ≥ 5 MiB for every part but the last, and at most 10,000 parts. */
const MIN_PART_BYTES = 8 * MiB;
const MAX_PARTS = 10_000;
/** CopyObject copies at most 5 GiB in one request; larger objects are streamed through this process. */
export const S3_COPY_OBJECT_LIMIT = 5 * 1024 * MiB;
const DELETE_CONCURRENCY = 8;

export function createS3Client(config: S3StorageConfig): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Checksums only where S3 requires them: many S3-compatible servers reject the SDK's default
    // CRC32 trailers (aws-chunked bodies). Integrity is ours anyway: every byte is SHA-256'd.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // A server that does not answer should fail a request, not hang it; a slow reader (a paused
    // video) must not, so there is no idle timeout on open responses.
    requestHandler: { connectionTimeout: 10_000 },
  });
}

interface StagedPart {
  s3Key: string;
  offset: number;
  size: number;
  lastModified: Date;
}

/**
 * ObjectStorage on an S3-compatible bucket, under `prefix`: objects at `<prefix>objects/<key>`,
 * resumable uploads as one part object per appended chunk at `<prefix>staging/<id>/<offset>.<uuid>`
 * (the offset zero-padded to 16 digits).
 *
 * Readers never see a partial object: S3 only makes an object visible when its PUT or multipart
 * upload completes, and every write here is hashed (and size-checked) while it streams, with the
 * check done before the last byte is handed to the upload. A refused body therefore never
 * completes its upload; the SDK aborts the parts already sent.
 */
export class S3Storage implements ObjectStorage {
  private readonly copyLimitBytes: number;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
    /** Tests lower the CopyObject limit to exercise the streamed copy used above 5 GiB. */
    options: { copyLimitBytes?: number } = {},
  ) {
    if (prefix !== "" && !prefix.endsWith("/")) throw new Error("the S3 prefix must be empty or end with /");
    this.copyLimitBytes = options.copyLimitBytes ?? S3_COPY_OBJECT_LIMIT;
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return `${this.prefix}objects/${key}`;
  }

  private stagingPrefix(uploadId: string): string {
    assertSafeUploadId(uploadId);
    return `${this.prefix}staging/${uploadId}/`;
  }

  async put(
    key: string,
    body: Readable | Uint8Array,
    options: { expectedSha256?: string; maxBytes?: number } = {},
  ): Promise<StoredObject> {
    const target = this.objectKey(key);
    if (body instanceof Uint8Array) {
      const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      if (options.maxBytes !== undefined && bytes.length > options.maxBytes)
        throw new StorageTooLargeError(`larger than ${options.maxBytes} bytes`);
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      if (options.expectedSha256 && options.expectedSha256 !== sha256) {
        throw new StorageIntegrityError(`SHA-256 mismatch: expected ${options.expectedSha256}, got ${sha256}`);
      }
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: target,
          Body: bytes,
          ContentLength: bytes.length,
          Metadata: { sha256 },
        }),
      );
      return { key, sha256, size: bytes.length };
    }
    const stored = await this.uploadChecked(target, body, {
      maxBytes: options.maxBytes,
      expectedSha256: options.expectedSha256,
    });
    return { key, ...stored };
  }

  /**
   * Streams `source` to `s3Key` as one PUT or a multipart upload, hashing on the way. The size limit
   * is checked on every chunk and the SHA-256 (and size) when the source ends, before the upload may
   * complete: a refused body errors the stream the upload reads, so nothing becomes visible. When the
   * expected hash is known up front it is stored as the object's `sha256` metadata.
   */
  private async uploadChecked(
    s3Key: string,
    source: Readable,
    check: { maxBytes?: number; expectedSha256?: string; expectedSize?: number; mismatch?: (got: string) => string },
  ): Promise<{ sha256: string; size: number }> {
    const hash = createHash("sha256");
    let size = 0;
    let sha256 = "";
    let refusal: Error | null = null;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (check.maxBytes !== undefined && size > check.maxBytes) {
          refusal = new StorageTooLargeError(`larger than ${check.maxBytes} bytes`);
          callback(refusal);
          return;
        }
        hash.update(chunk);
        callback(null, chunk);
      },
      flush(callback) {
        sha256 = hash.digest("hex");
        if (check.expectedSize !== undefined && size !== check.expectedSize) {
          refusal = new StorageIntegrityError(`received ${size} of ${check.expectedSize} bytes`);
        } else if (check.expectedSha256 && check.expectedSha256 !== sha256) {
          refusal = new StorageIntegrityError(
            check.mismatch?.(sha256) ?? `SHA-256 mismatch: expected ${check.expectedSha256}, got ${sha256}`,
          );
        }
        callback(refusal);
      },
    });
    let sourceError: unknown = null;
    const piped = pipeline(source, meter).catch((error: unknown) => {
      sourceError = error;
    });
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: s3Key,
        Body: meter,
        ...(check.expectedSha256 ? { Metadata: { sha256: check.expectedSha256 } } : {}),
      },
      partSize: partSizeFor(check.expectedSize ?? check.maxBytes),
      queueSize: 4,
    });
    try {
      await upload.done();
    } catch (error) {
      // The upload stopped reading: stop the source too, then report why it really failed. The SDK's
      // abort of a refused multipart upload can fail in its turn and would hide our refusal.
      meter.destroy();
      await piped;
      throw refusal ?? sourceError ?? error;
    }
    await piped;
    if (refusal) {
      // Only if an SDK release completed uploads before reading their body's end: take it back.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: s3Key }));
      throw refusal;
    }
    return { sha256, size };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const s3Key = this.objectKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: s3Key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(`No object at ${key}.`);
      throw error;
    }
  }

  async getBytes(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.get(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const head = await this.head(key);
    return head ? { size: head.size } : null;
  }

  /** Size and, for objects stored with a known hash, the SHA-256 recorded in their metadata. */
  async head(key: string): Promise<{ size: number; sha256: string | null } | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: answer.ContentLength ?? 0, sha256: answer.Metadata?.sha256 ?? null };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /** Copy, then delete: the target appears whole; a crash in between leaves the source for the sweep. */
  async move(fromKey: string, toKey: string): Promise<void> {
    const from = this.objectKey(fromKey);
    const to = this.objectKey(toKey);
    const head = await this.head(fromKey);
    if (!head) throw new StorageNotFoundError(`No object at ${fromKey}.`);
    if (head.size <= this.copyLimitBytes) {
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${encodeKeyForCopy(from)}` }),
      );
    } else {
      // Beyond CopyObject's limit. (UploadPartCopy would copy server-side, but S3-compatible servers
      // do not all implement it; streaming works everywhere and is checked against the recorded hash.)
      await this.uploadChecked(to, await this.get(fromKey), {
        expectedSize: head.size,
        expectedSha256: head.sha256 ?? undefined,
      });
    }
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: from }));
  }

  async appendToStaging(uploadId: string, offset: number, body: Readable, maxBytes: number): Promise<number> {
    const current = coverage(await this.stagedParts(uploadId)).size;
    if (current !== offset) throw new StorageOffsetError(current);
    let size = current;
    let arrivedBytes = 0;
    let tooLarge: StorageTooLargeError | null = null;
    let sourceError: unknown = null;
    const arrived = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) {
          tooLarge = new StorageTooLargeError(`larger than ${maxBytes} bytes`);
          callback(tooLarge);
          return;
        }
        arrivedBytes += chunk.length;
        callback(null, chunk);
      },
    });
    // A dropped connection keeps the bytes that did arrive, as a local file does: the part ends
    // where the body broke off, is stored, and the client resumes from stagingSize.
    const brokeOff = (error: unknown) => {
      if (sourceError) return;
      sourceError = error;
      if (!arrived.destroyed && !arrived.writableEnded) arrived.end();
    };
    body.on("error", brokeOff);
    body.on("close", () => {
      if (!body.readableEnded) brokeOff(new Error("The request body closed before its end."));
    });
    body.pipe(arrived);
    const partKey = `${this.stagingPrefix(uploadId)}${String(offset).padStart(16, "0")}.${randomUUID()}`;
    try {
      await new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: partKey, Body: arrived },
        partSize: MIN_PART_BYTES,
        queueSize: 4,
      }).done();
    } catch (error) {
      body.unpipe(arrived);
      arrived.destroy();
      throw tooLarge ?? sourceError ?? error;
    }
    if (arrivedBytes === 0) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: partKey }));
    if (sourceError) throw sourceError;
    return this.stagingSize(uploadId);
  }

  async stagingSize(uploadId: string): Promise<number> {
    return coverage(await this.stagedParts(uploadId)).size;
  }

  async promoteStaging(
    uploadId: string,
    key: string,
    options: { expectedSha256: string; expectedSize: number },
  ): Promise<StoredObject> {
    const target = this.objectKey(key);
    const { size, pieces } = coverage(await this.stagedParts(uploadId));
    if (size !== options.expectedSize)
      throw new StorageIntegrityError(`received ${size} of ${options.expectedSize} bytes`);
    const read = async (piece: (typeof pieces)[number]) => {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: piece.s3Key, Range: `bytes=${piece.start}-${piece.end}` }),
      );
      return answer.Body as Readable;
    };
    const concatenated = Readable.from(
      (async function* () {
        for (const piece of pieces) yield* await read(piece);
      })(),
    );
    await this.uploadChecked(target, concatenated, {
      expectedSize: options.expectedSize,
      expectedSha256: options.expectedSha256,
      mismatch: (got) =>
        `SHA-256 mismatch: the client said ${options.expectedSha256}, the bytes that arrived hash to ${got}`,
    });
    await this.discardStaging(uploadId);
    return { key, sha256: options.expectedSha256, size };
  }

  async discardStaging(uploadId: string): Promise<void> {
    await this.deleteAll((await this.stagedParts(uploadId)).map((part) => part.s3Key));
  }

  async sweepStale(options: { olderThan: Date; keepUploadIds: ReadonlySet<string> }): Promise<string[]> {
    const removed: string[] = [];
    // incoming/<uuid> from multipart uploads, incoming/<uploadId> from completing uploads.
    const incomingPrefix = `${this.prefix}objects/incoming/`;
    const stale: string[] = [];
    for await (const object of this.list(incomingPrefix)) {
      const name = object.Key!.slice(incomingPrefix.length);
      if (options.keepUploadIds.has(name.split(".")[0]!) || !(object.LastModified! < options.olderThan)) continue;
      stale.push(object.Key!);
      removed.push(`incoming/${name}`);
    }
    await this.deleteAll(stale);
    // A staged upload is as old as its last appended part.
    const stagingRoot = `${this.prefix}staging/`;
    const uploads = new Map<string, { keys: string[]; lastModified: Date }>();
    for await (const object of this.list(stagingRoot)) {
      const uploadId = object.Key!.slice(stagingRoot.length).split("/")[0]!;
      const upload = uploads.get(uploadId) ?? { keys: [], lastModified: new Date(0) };
      upload.keys.push(object.Key!);
      if (object.LastModified! > upload.lastModified) upload.lastModified = object.LastModified!;
      uploads.set(uploadId, upload);
    }
    for (const [uploadId, upload] of uploads) {
      if (options.keepUploadIds.has(uploadId) || !(upload.lastModified < options.olderThan)) continue;
      await this.deleteAll(upload.keys);
      removed.push(`staging/${uploadId}`);
    }
    return removed;
  }

  /** Downloads the object to a temporary file (in TMPDIR) that is removed once `use` is done. */
  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const source = await this.get(key);
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "framejury-s3-"));
    try {
      const file = path.join(dir, "object");
      await pipeline(source, fs.createWriteStream(file, { flags: "wx" }));
      return await use(file);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  /** Every object key under `<prefix>objects/` as a storage key, with its size (storage:migrate, tests). */
  async *listKeys(): AsyncGenerator<{ key: string; size: number }> {
    const root = `${this.prefix}objects/`;
    for await (const object of this.list(root)) yield { key: object.Key!.slice(root.length), size: object.Size ?? 0 };
  }

  private async stagedParts(uploadId: string): Promise<StagedPart[]> {
    const prefix = this.stagingPrefix(uploadId);
    const parts: StagedPart[] = [];
    for await (const object of this.list(prefix)) {
      const offset = Number(object.Key!.slice(prefix.length).split(".")[0]);
      if (!Number.isSafeInteger(offset)) continue;
      parts.push({ s3Key: object.Key!, offset, size: object.Size ?? 0, lastModified: object.LastModified! });
    }
    return parts;
  }

  private async *list(prefix: string): AsyncGenerator<_Object> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      yield* page.Contents ?? [];
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  // One DeleteObject per key rather than DeleteObjects: the batch call needs a Content-MD5 or
  // checksum header that S3-compatible servers disagree about.
  private async deleteAll(s3Keys: string[]): Promise<void> {
    const queue = [...s3Keys];
    await Promise.all(
      Array.from({ length: Math.min(DELETE_CONCURRENCY, queue.length) }, async () => {
        for (let s3Key = queue.shift(); s3Key !== undefined; s3Key = queue.shift()) {
          await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: s3Key }));
        }
      }),
    );
  }
}

/**
 * The staged bytes as a contiguous run from byte 0: at each position, the part that starts at or
 * before it and reaches furthest. Parts normally follow each other exactly; overlaps (a chunk
 * re-sent after a lost lease) are read once, and a gap ends the run, so the client resends from there.
 */
export function coverage(parts: StagedPart[]): {
  size: number;
  pieces: { s3Key: string; start: number; end: number }[];
} {
  const sorted = [...parts].sort((a, b) => a.offset - b.offset);
  const pieces: { s3Key: string; start: number; end: number }[] = [];
  let position = 0;
  while (true) {
    let best: StagedPart | null = null;
    for (const part of sorted) {
      if (part.offset > position) break;
      if (part.offset + part.size > position && (!best || part.offset + part.size > best.offset + best.size))
        best = part;
    }
    if (!best) return { size: position, pieces };
    pieces.push({ s3Key: best.s3Key, start: position - best.offset, end: best.size - 1 });
    position = best.offset + best.size;
  }
}

function partSizeFor(totalBytes: number | undefined): number {
  return Math.max(MIN_PART_BYTES, Math.ceil((totalBytes ?? 0) / (MAX_PARTS - 1)));
}

/** A missing key (GetObject's NoSuchKey, HeadObject's bodiless 404); a missing bucket is not this. */
function isMissing(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return name === "NoSuchKey" || name === "NotFound";
}

/** CopySource is "bucket/key" with the key URL-encoded segment by segment. */
function encodeKeyForCopy(s3Key: string): string {
  return s3Key.split("/").map(encodeURIComponent).join("/");
}
