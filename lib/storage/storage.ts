import { LocalStorage } from "./local-storage";
import type { ObjectStorage } from "./object-storage";
import { createS3Client, S3Storage } from "./s3-storage";
import { storageConfigFromEnv, type StorageConfig } from "./storage-config";

const globalForStorage = globalThis as unknown as { storage?: ObjectStorage };

/**
 * The configured storage: an S3-compatible bucket when STORAGE_URL=s3://bucket/prefix, else a local
 * directory (STORAGE_DIR, default DATA_DIR/storage). Throws StorageConfigError on a bad setting.
 */
export function getStorage(): ObjectStorage {
  globalForStorage.storage ??= storageFor(storageConfigFromEnv());
  return globalForStorage.storage;
}

export function storageFor(config: StorageConfig): ObjectStorage {
  return config.kind === "s3" ? new S3Storage(createS3Client(config), config.bucket, config.prefix) : new LocalStorage(config.dir);
}

export function videoKey(projectId: string, sha256: string, extension: string): string {
  return `projects/${projectId}/videos/${sha256}${extension}`;
}

export function frameKey(projectId: string, frameSetId: string, index: number): string {
  return `projects/${projectId}/frames/${frameSetId}/${String(index).padStart(5, "0")}.jpg`;
}
