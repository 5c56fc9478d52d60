import path from "node:path";
import { dataDir } from "../config/paths";
import { LocalStorage } from "./local-storage";
import type { ObjectStorage } from "./object-storage";

const globalForStorage = globalThis as unknown as { storage?: ObjectStorage };

/** The configured storage: a local directory (STORAGE_DIR, default DATA_DIR/storage). */
export function getStorage(): ObjectStorage {
  globalForStorage.storage ??= new LocalStorage(path.resolve(process.env.STORAGE_DIR ?? path.join(dataDir(), "storage")));
  return globalForStorage.storage;
}

export function videoKey(projectId: string, sha256: string, extension: string): string {
  return `projects/${projectId}/videos/${sha256}${extension}`;
}

export function frameKey(projectId: string, frameSetId: string, index: number): string {
  return `projects/${projectId}/frames/${frameSetId}/${String(index).padStart(5, "0")}.jpg`;
}
