// `npm run storage:migrate [-- --from DIR] [--concurrency N]`: copies the local store (STORAGE_DIR,
// default DATA_DIR/storage, or --from) to the S3-compatible store that STORAGE_URL and S3_* name.
// Resumable and verified by SHA-256 (lib/storage/migrate-local-to-s3.ts). Ctrl-C stops after the
// objects being copied; run it again to continue. Exit codes: 0 everything is in the bucket,
// 1 some objects failed or the run was interrupted, 2 bad arguments or configuration.
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { dataDir } from "../lib/config/paths";
import { migrateLocalToS3 } from "../lib/storage/migrate-local-to-s3";
import { createS3Client, S3Storage } from "../lib/storage/s3-storage";
import { checkStorage } from "../lib/storage/storage";
import { storageConfigFromEnv } from "../lib/storage/storage-config";

const log = (line: string) => console.log(`[storage:migrate] ${line}`);
function fail(message: string): never {
  console.error(`[storage:migrate] ${message}`);
  process.exit(2);
}

let args: { from?: string; concurrency: number };
try {
  const { values } = parseArgs({
    options: { from: { type: "string" }, concurrency: { type: "string", default: "4" } },
  });
  args = z
    .object({ from: z.string().min(1).optional(), concurrency: z.coerce.number().int().min(1).max(64) })
    .parse(values);
} catch (error) {
  fail(
    `${error instanceof z.ZodError ? z.prettifyError(error) : error instanceof Error ? error.message : String(error)}\nusage: npm run storage:migrate -- [--from DIR] [--concurrency N]`,
  );
}

let config;
try {
  config = storageConfigFromEnv();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (config.kind !== "s3") fail("STORAGE_URL is not set: set it (and S3_*) to the S3-compatible store to copy to.");
const sourceDir = path.resolve(args.from ?? process.env.STORAGE_DIR ?? path.join(dataDir(), "storage"));

try {
  log(`from local directory ${sourceDir} to ${await checkStorage(config)}`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

const stop = new AbortController();
process.on("SIGINT", () => {
  if (stop.signal.aborted) process.exit(1);
  log("stopping after the objects being copied (Ctrl-C again to quit now)…");
  stop.abort();
});

const summary = await migrateLocalToS3({
  sourceDir,
  target: new S3Storage(createS3Client(config), config.bucket, config.prefix),
  log,
  signal: stop.signal,
  concurrency: args.concurrency,
});
process.exit(summary.failed.length === 0 && !summary.interrupted ? 0 : 1);
