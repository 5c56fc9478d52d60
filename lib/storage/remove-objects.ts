import { log } from "../observability/logger";
import type { ObjectStorage } from "./object-storage";

export interface RemovedObjects {
  removed: number;
  /** Keys still in storage after every attempt (the first 100); each is logged. */
  failed: string[];
  failedCount: number;
}

/**
 * Removes the objects of rows already deleted (a deleted video's file and frames). Called after the
 * rows' transaction commits, so a failure here never brings rows back: each key is tried up to
 * `attempts` times (S3 answers 5xx and throttles now and then), and a key that still fails is logged
 * as a warning with the key and reported to the caller. Callers go through lib/storage/storage-garbage.ts,
 * which keeps such a key recorded for the next sweep.
 */
export async function removeStoredObjects(
  storage: ObjectStorage,
  keys: readonly string[],
  options: { attempts?: number; concurrency?: number; onRemoved?: (key: string) => void } = {},
): Promise<RemovedObjects> {
  const attempts = options.attempts ?? 3;
  const queue = [...new Set(keys)];
  const failed: string[] = [];
  let removed = 0;
  const lanes = Array.from({ length: Math.min(options.concurrency ?? 8, queue.length) }, async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      for (let attempt = 1; ; attempt++) {
        try {
          await storage.delete(key);
          removed += 1;
          options.onRemoved?.(key);
          break;
        } catch (error) {
          if (attempt >= attempts) {
            failed.push(key);
            log().warn(
              { err: error, key, attempts },
              "could not remove a stored object of deleted rows; its key stays recorded for the next sweep",
            );
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
    }
  });
  await Promise.all(lanes);
  return { removed, failed: failed.slice(0, 100), failedCount: failed.length };
}
