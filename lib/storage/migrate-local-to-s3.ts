import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { formatBytes } from "../format/numbers";
import { assertSafeKey } from "./object-storage";
import type { S3Storage } from "./s3-storage";

export interface MigrationSummary {
  objects: number;
  copied: number;
  /** Already in the bucket with the same size and SHA-256 (an earlier, interrupted run). */
  skipped: number;
  failed: { key: string; error: string }[];
  bytesCopied: number;
  /** Stopped by the signal before every object was looked at. */
  interrupted: boolean;
}

export type MigrationOutcome = "copied" | "skipped" | "failed";

// A put's temporary file next to its target: `<name>.<uuid>.part` (local-storage.ts).
const PARTIAL_WRITE = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/;

/**
 * Copies a local store's objects (`<sourceDir>/objects/<key>`) to S3 under the same keys. Resumable:
 * an object already in the bucket with the same size and SHA-256 is skipped, so a run that was
 * stopped is simply started again. Every copy is verified: the bytes are hashed while they stream
 * (the upload never completes if the file changed on the way) and read back from the bucket and
 * hashed again; a copy that does not match is deleted and reported.
 *
 * Not copied: `incoming/` (bytes of uploads in flight) and the staging area of resumable uploads,
 * whose browsers start those uploads again.
 */
export async function migrateLocalToS3(options: {
  sourceDir: string;
  target: S3Storage;
  log: (line: string) => void;
  signal?: AbortSignal;
  concurrency?: number;
  progressEveryMs?: number;
  onObject?: (key: string, outcome: MigrationOutcome) => void;
}): Promise<MigrationSummary> {
  const { target, log } = options;
  const root = path.join(options.sourceDir, "objects");
  const files = await listObjectFiles(root);
  const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
  log(`${files.length} objects (${formatBytes(totalBytes)}) in ${root}`);

  const summary: MigrationSummary = {
    objects: files.length,
    copied: 0,
    skipped: 0,
    failed: [],
    bytesCopied: 0,
    interrupted: false,
  };
  let done = 0;
  let bytesDone = 0;
  let lastProgress = Date.now();
  const progress = () =>
    `${done}/${files.length} objects, ${formatBytes(bytesDone)} of ${formatBytes(totalBytes)} (copied ${summary.copied}, already there ${summary.skipped}, failed ${summary.failed.length})`;

  const migrateOne = async (file: { key: string; path: string; size: number }): Promise<MigrationOutcome> => {
    try {
      assertSafeKey(file.key);
      const sha256 = await sha256Of(fs.createReadStream(file.path));
      const present = await target.head(file.key);
      if (present && present.size === file.size) {
        // Objects the app stored from a stream carry no recorded hash: hash them to be sure.
        const presentSha = present.sha256 ?? (await sha256Of(await target.get(file.key)));
        if (presentSha === sha256) return "skipped";
      }
      await target.put(file.key, fs.createReadStream(file.path), { expectedSha256: sha256 });
      const readBack = await sha256Of(await target.get(file.key));
      if (readBack !== sha256) {
        await target.delete(file.key);
        throw new Error(`the copy reads back with SHA-256 ${readBack}, not ${sha256}; deleted it`);
      }
      summary.copied += 1;
      summary.bytesCopied += file.size;
      return "copied";
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      summary.failed.push({ key: file.key, error: message });
      log(`failed: ${file.key}: ${message}`);
      return "failed";
    }
  };

  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      if (options.signal?.aborted) {
        summary.interrupted = true;
        return;
      }
      const outcome = await migrateOne(file);
      if (outcome === "skipped") summary.skipped += 1;
      done += 1;
      bytesDone += file.size;
      options.onObject?.(file.key, outcome);
      if (Date.now() - lastProgress >= (options.progressEveryMs ?? 2000)) {
        lastProgress = Date.now();
        log(progress());
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, files.length)) }, worker));

  log(
    `${summary.interrupted ? "interrupted" : "done"}: ${progress()}; ${formatBytes(summary.bytesCopied)} copied and verified by SHA-256` +
      (summary.interrupted ? ". Run it again to continue: objects already copied are skipped." : ""),
  );
  return summary;
}

async function listObjectFiles(root: string): Promise<{ key: string; path: string; size: number }[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new Error(`${root} does not exist: is --from (or STORAGE_DIR) the local store?`);
    throw error;
  }
  const files: { key: string; path: string; size: number }[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const key = path.relative(root, file).split(path.sep).join("/");
    if (key.startsWith("incoming/") || PARTIAL_WRITE.test(key)) continue;
    files.push({ key, path: file, size: (await fsp.stat(file)).size });
  }
  return files.sort((a, b) => a.key.localeCompare(b.key));
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(stream, async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) hash.update(chunk);
  });
  return hash.digest("hex");
}
