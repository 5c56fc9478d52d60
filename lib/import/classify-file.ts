// Which files of a dropped folder (or a folder on disk, for the headless import) are what: shared by the
// Import page and `npm run import`.
const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|webm|mkv)$/i;
const LIST_EXTENSIONS = /\.(txt|json|csv|jsonl)$/i;

export type PickedKind = "video" | "prompt-list" | "metadata" | "other";

/**
 * Sorts picked files: videos by extension; a prompt list is a txt/json/csv/jsonl inside a
 * `prompt`/`prompts` folder, a json inside `meta_info`, or named like VBench's lists (VBench2_full_text_info.json,
 * VBench2_full_info.json); a csv/jsonl named `*metadata*` is metadata.
 */
export function classifyPickedFile(relativePath: string): PickedKind {
  const name = relativePath.split("/").pop() ?? relativePath;
  if (VIDEO_EXTENSIONS.test(name)) return "video";
  if (!LIST_EXTENSIONS.test(name)) return "other";
  if (/meta/i.test(name) && /\.(csv|jsonl)$/i.test(name)) return "metadata";
  const folders = relativePath.split("/").slice(0, -1);
  const inPromptFolder = folders.some((part) => /^prompts?$/i.test(part));
  // VBench-2.0's per-dimension auxiliary info: meta_info/<Dimension>.json.
  const inMetaInfoFolder = /\.json$/i.test(name) && folders.some((part) => /^meta_info$/i.test(part));
  if (inPromptFolder || inMetaInfoFolder || /vbench2?_full_(text|info)/i.test(name) || /prompt/i.test(name))
    return "prompt-list";
  return "other";
}
