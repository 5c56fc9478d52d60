// Which files of a dropped folder (or a folder on disk, for the headless import) are what: shared by the
// Import page and `npm run import`.
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
