import fs from "node:fs";
import path from "node:path";

/** The user's data next to the checkout (the seeds, the VBench-2.0 prompt suite, the real clips); tests read it, never copy it. */
export const SHARED_DIR = path.resolve(import.meta.dirname, "../../../shared");

/**
 * The path of a file or folder in `../shared`, or an error that says what is missing and why, instead of a bare
 * ENOENT in a clone that has no `shared/` beside it.
 */
export function sharedDataPath(relativePath: string): string {
  const full = path.join(SHARED_DIR, relativePath);
  if (!fs.existsSync(full)) {
    throw new Error(
      `${full} is missing: this test reads the user's data in ../shared, next to the checkout, and never copies it. ` +
        "Clone the repository next to shared/, or link shared/ there (docs/testing.md).",
    );
  }
  return full;
}
