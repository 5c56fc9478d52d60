import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { LocalStorage } from "./local-storage";
import type { ObjectStorage } from "./object-storage";
import { createS3Client, S3Storage } from "./s3-storage";
import { describeStorageConfig, StorageConfigError, storageConfigFromEnv, type StorageConfig } from "./storage-config";
import { processOnce } from "../config/process-slot";

/**
 * The configured storage: an S3-compatible bucket when STORAGE_URL=s3://bucket/prefix, else a local
 * directory (STORAGE_DIR, default DATA_DIR/storage), one per process (lib/config/process-slot.ts). Throws
 * StorageConfigError on a bad setting.
 */
export function getStorage(): ObjectStorage {
  return processOnce("storage", () => storageFor(storageConfigFromEnv()));
}

export function storageFor(config: StorageConfig): ObjectStorage {
  return config.kind === "s3"
    ? new S3Storage(createS3Client(config), config.bucket, config.prefix)
    : new LocalStorage(config.dir);
}

/**
 * Start-up check: the configuration parses and, for S3, the bucket can be listed under the prefix
 * with these credentials (listing is needed for resumable uploads and the sweep). Returns a line for
 * the log; throws StorageConfigError saying what to check.
 */
export async function checkStorage(config: StorageConfig = storageConfigFromEnv()): Promise<string> {
  const description = describeStorageConfig(config);
  if (config.kind === "local") return description;
  const client = createS3Client(config);
  try {
    await client.send(new ListObjectsV2Command({ Bucket: config.bucket, Prefix: config.prefix, MaxKeys: 1 }));
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new StorageConfigError(
      `Storage: cannot list ${description} (${reason}). Check STORAGE_URL, S3_ENDPOINT, S3_REGION, the credentials, and that the bucket exists.`,
    );
  } finally {
    client.destroy();
  }
  return description;
}

export function videoKey(projectId: string, sha256: string, extension: string): string {
  return `projects/${projectId}/videos/${sha256}${extension}`;
}

export function frameKey(projectId: string, frameSetId: string, index: number): string {
  return `projects/${projectId}/frames/${frameSetId}/${String(index).padStart(5, "0")}.jpg`;
}
