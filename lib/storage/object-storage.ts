import type { Readable } from "node:stream";

/**
 * Where videos and frames live. Callers only see keys: a local directory (local-storage.ts) or an
 * S3-compatible bucket (s3-storage.ts), chosen by STORAGE_URL (storage.ts). Both pass the same
 * contract tests (object-storage.contract.test.ts).
 */
export interface ObjectStorage {
  /**
   * Stores `body` under `key` atomically (readers never see a partial object). The SHA-256 is
   * computed on arrival; with `expectedSha256` a mismatch stores nothing and throws
   * StorageIntegrityError. With `maxBytes` a larger body stores nothing and throws StorageTooLargeError.
   */
  put(
    key: string,
    body: Readable | Uint8Array,
    options?: { expectedSha256?: string; maxBytes?: number },
  ): Promise<StoredObject>;
  /** Streams the object, or the inclusive byte range [start, end]; StorageNotFoundError when there is none. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * The whole object as bytes; StorageNotFoundError when there is none. For small objects read many at a time (the
   * judge's frames): a stream's read buffer is fresh memory for every object, which costs more than the read.
   */
  getBytes(key: string): Promise<Buffer>;
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
  /** Moves an object to another key (replacing what is there). */
  move(fromKey: string, toKey: string): Promise<void>;

  // Resumable uploads: parts appended to a staging object, then promoted to a key.
  appendToStaging(uploadId: string, offset: number, body: Readable, maxBytes: number): Promise<number>;
  stagingSize(uploadId: string): Promise<number>;
  /** Hashes the staged bytes, checks them, and moves them to `key`; the staging object is gone after. */
  promoteStaging(
    uploadId: string,
    key: string,
    options: { expectedSha256: string; expectedSize: number },
  ): Promise<StoredObject>;
  discardStaging(uploadId: string): Promise<void>;
  /**
   * Removes what interrupted requests left behind: incoming objects, partial writes and staged
   * uploads last changed before `olderThan`, except anything of the uploads in `keepUploadIds`.
   * Returns the removed keys (staged uploads as `staging/<id>`).
   */
  sweepStale(options: { olderThan: Date; keepUploadIds: ReadonlySet<string> }): Promise<string[]>;
  /** A local path for tools that need a file (server-side probing); local storage returns the file itself. */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
}

export interface StoredObject {
  key: string;
  sha256: string;
  size: number;
}

export class StorageIntegrityError extends Error {}
export class StorageNotFoundError extends Error {}
export class StorageTooLargeError extends Error {}
/** The client's offset does not match what is staged: it should resume from `actual`. */
export class StorageOffsetError extends Error {
  constructor(readonly actual: number) {
    super(`The upload is at byte ${actual}.`);
  }
}

const SAFE_KEY = /^[A-Za-z0-9_\-./]+$/;

/** Keys are relative paths of safe characters: no empty, `.` or `..` segment can escape the store. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split("/").some((part) => part === "" || part === "." || part === "..")) {
    throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  }
}

export function assertSafeUploadId(uploadId: string): void {
  if (!/^[A-Za-z0-9_-]+$/.test(uploadId)) throw new Error("unsafe upload id");
}
