/**
 * Tells question sets apart from the other files dropped on the Import page by their first record: a
 * question set's records have `question` and `answer` (JSONL, a JSON array, or CSV columns). Only the head
 * of the file is read.
 */
import { CAPTION_SNIFF_BYTES } from "../captions/sniff-caption-file";

/** Bytes of a file's head that sniffing reads (one question is well under this). */
export const QUESTION_SNIFF_BYTES = CAPTION_SNIFF_BYTES;

const hasKeys = (record: unknown) =>
  !!record && typeof record === "object" && !Array.isArray(record) && "question" in record && "answer" in record;
const looksLikeQuestion = (text: string) => /"question"\s*:/.test(text) && /"answer"\s*:/.test(text);

export function sniffQuestionFile(fileName: string, head: string): boolean {
  const text = head.replace(/^\uFEFF/, "");
  const firstLine =
    text
      .split(/\r?\n/)
      .find((line) => line.trim() !== "")
      ?.trim() ?? "";
  if (/\.(jsonl|ndjson)$/i.test(fileName) || (/\.json$/i.test(fileName) && firstLine.startsWith("{"))) {
    try {
      return hasKeys(JSON.parse(firstLine));
    } catch {
      // The head may cut a very long first line; its keys still show what it is.
      return firstLine.startsWith("{") && looksLikeQuestion(firstLine);
    }
  }
  if (/\.json$/i.test(fileName)) {
    if (!text.trimStart().startsWith("[")) return false;
    try {
      const value = JSON.parse(text) as unknown;
      return Array.isArray(value) && hasKeys(value[0]);
    } catch {
      // Only the head was read: look at the first element's keys.
      const firstElement = text.slice(text.indexOf("[") + 1, text.indexOf("}") + 1);
      return looksLikeQuestion(firstElement);
    }
  }
  if (/\.csv$/i.test(fileName)) {
    const columns = firstLine.split(",").map((c) => c.trim().replace(/^"|"$/g, "").toLowerCase());
    return columns.includes("question") && columns.includes("answer");
  }
  return false;
}
