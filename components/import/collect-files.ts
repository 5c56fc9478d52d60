/** A file with the path it had inside the dropped or picked folder. */
export interface PickedFile {
  file: File;
  relativePath: string;
}

/** Files from an `<input type=file>` (with or without `webkitdirectory`). */
export function filesFromInput(list: FileList | null): PickedFile[] {
  return Array.from(list ?? []).map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

/** Files and whole folders dropped on the page, walked recursively. */
export async function filesFromDrop(transfer: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(transfer.items)
    .map((item) => (item.kind === "file" ? item.webkitGetAsEntry() : null))
    .filter((entry): entry is FileSystemEntry => entry !== null);
  if (entries.length === 0) return filesFromInput(transfer.files);
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, out);
  return out;
}

async function walk(entry: FileSystemEntry, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, relativePath: entry.fullPath.replace(/^\/+/, "") });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries returns at most ~100 entries per call: keep reading until it returns none.
  while (true) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, out);
  }
}

const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|webm|mkv)$/i;
const LIST_EXTENSIONS = /\.(txt|json|csv|jsonl)$/i;

export type PickedKind = "video" | "prompt-list" | "metadata" | "other";

/**
 * Sorts picked files: videos by extension; a prompt list is a txt/json/csv/jsonl inside a
 * `prompt`/`prompts` folder or named like VBench's lists; a csv/jsonl named `*metadata*` is metadata.
 */
export function classifyPickedFile(relativePath: string): PickedKind {
  const name = relativePath.split("/").pop() ?? relativePath;
  if (VIDEO_EXTENSIONS.test(name)) return "video";
  if (!LIST_EXTENSIONS.test(name)) return "other";
  if (/meta/i.test(name) && /\.(csv|jsonl)$/i.test(name)) return "metadata";
  const inPromptFolder = relativePath
    .split("/")
    .slice(0, -1)
    .some((part) => /^prompts?$/i.test(part));
  if (inPromptFolder || /vbench2?_full_text/i.test(name) || /prompt/i.test(name)) return "prompt-list";
  return "other";
}
