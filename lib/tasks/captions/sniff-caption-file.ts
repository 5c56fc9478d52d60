/**
 * Tells caption files apart from the other lists dropped on the Import page (prompt lists, metadata) by
 * their first record: an AnyCapEval reference line has `conversations`; a models' outputs file has an
 * `output` field (JSONL) or column (CSV). Only the head of the file is read, so a 60 MiB set is cheap to sort.
 */
export type CaptionFileKind = "caption_reference" | "caption_outputs";

/** Bytes of a file's head that sniffing needs: one reference line is well under this. */
export const CAPTION_SNIFF_BYTES = 256 * 1024;

function firstLine(text: string): string {
  for (const line of text.replace(/^\uFEFF/, "").split(/\r?\n/)) if (line.trim() !== "") return line.trim();
  return "";
}

export function sniffCaptionFile(fileName: string, head: string): CaptionFileKind | null {
  const line = firstLine(head);
  if (/\.jsonl$/i.test(fileName)) {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      // The head may cut a very long first line; its keys still show which kind it is.
      if (/^\{/.test(line) && /"conversations"\s*:/.test(line)) return "caption_reference";
      return /^\{/.test(line) && /"output"\s*:/.test(line) ? "caption_outputs" : null;
    }
    if (!record || typeof record !== "object" || Array.isArray(record)) return null;
    if ("conversations" in record) return "caption_reference";
    return "output" in record ? "caption_outputs" : null;
  }
  if (/\.csv$/i.test(fileName)) {
    const columns = line.split(",").map((c) => c.trim().replace(/^"|"$/g, "").toLowerCase());
    return columns.includes("output") ? "caption_outputs" : null;
  }
  return null;
}

/** The model name an outputs file suggests: its name without the extension and an `_outputs` suffix. */
export function modelFromFileName(fileName: string): string {
  const stem = (fileName.split("/").pop() ?? fileName).replace(/\.(jsonl|csv)$/i, "");
  return stem.replace(/[-_. ]?(outputs?|captions?|results?)$/i, "") || stem;
}
