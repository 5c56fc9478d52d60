import fs from "node:fs";
import path from "node:path";

/**
 * Open uploads by SHA-256, kept between runs: an import stopped part-way through a file resumes that
 * upload from the bytes the server holds instead of sending the file again. An entry lives from the
 * upload's start to its completion (or refusal).
 */
export interface UploadJournal {
  get(sha256: string): string | undefined;
  set(sha256: string, uploadId: string): Promise<void>;
  delete(sha256: string): Promise<void>;
}

/** A journal in a JSON file (written whole, through a temporary file, on every change). */
export function fileUploadJournal(filePath: string): UploadJournal {
  let entries: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(filePath, "utf8"));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      entries = Object.fromEntries(
        Object.entries(parsed).filter(
          (entry): entry is [string, string] => /^[0-9a-f]{64}$/.test(entry[0]) && typeof entry[1] === "string",
        ),
      );
    }
  } catch {
    entries = {}; // missing or unreadable: nothing to resume
  }
  // Writes one at a time, in order, so a later state never lands before an earlier one.
  let writing = Promise.resolve();
  const save = () => {
    const snapshot = JSON.stringify(entries);
    writing = writing.then(async () => {
      await fs.promises.mkdir(path.dirname(filePath), { recursive: true });
      const temporary = `${filePath}.${process.pid}.tmp`;
      await fs.promises.writeFile(temporary, snapshot);
      await fs.promises.rename(temporary, filePath);
    });
    return writing;
  };
  return {
    get: (sha256) => entries[sha256],
    set: (sha256, uploadId) => {
      entries[sha256] = uploadId;
      return save();
    },
    delete: (sha256) => {
      if (!(sha256 in entries)) return Promise.resolve();
      delete entries[sha256];
      return save();
    },
  };
}
