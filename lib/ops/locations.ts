import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../config/paths";

/**
 * Where a backup takes the store's files from, or restores them to: the local store's folder, or
 * nothing when objects live in S3-compatible storage (STORAGE_URL=s3://…), which is backed up with the
 * bucket's own tools.
 */
export function storageLocation(
  env: NodeJS.ProcessEnv = process.env,
): { kind: "local"; dir: string } | { kind: "not_copied"; location: string; reason: string } {
  const url = env.STORAGE_URL?.trim();
  if (url && /^s3:/i.test(url)) {
    return {
      kind: "not_copied",
      location: url.replace(/\/\/[^@/]*@/, "//"),
      reason:
        "the objects are in S3-compatible storage; back the bucket up with its own tools (versioning, replication, or a sync to another bucket)",
    };
  }
  return { kind: "local", dir: path.resolve(env.STORAGE_DIR ?? path.join(dataDir(), "storage")) };
}

/** The secret in use and where it comes from: APP_SECRET, else DATA_DIR/secret, else none yet. */
export function secretInUse(
  env: NodeJS.ProcessEnv = process.env,
): { source: "environment"; value: string } | { source: "data_dir"; value: string } | { source: "none" } {
  if (env.APP_SECRET) return { source: "environment", value: env.APP_SECRET };
  const file = secretFile();
  if (fs.existsSync(file)) return { source: "data_dir", value: fs.readFileSync(file, "utf8").trim() };
  return { source: "none" };
}

export function secretFile(): string {
  return path.join(dataDir(), "secret");
}
