/**
 * VBench / VBench-2.0 evaluation results (`{<dimension>: [<aggregate>, [{"video_path", "video_results"}, …]]}`):
 * each video's value per dimension, imported as an automatic annotator so a judge can be set beside
 * VBench's own metrics. Numbers are kept as they are, booleans as 1/0; any other per-video result (a
 * nested object) is listed as skipped.
 */
import { ValidationError } from "../errors";

export interface VbenchResult {
  dimension: string;
  /** Position in the dimension's list (0-based). */
  index: number;
  videoPath: string;
  value: number;
}

export interface VbenchIssue {
  dimension: string;
  index: number | null;
  videoPath: string | null;
  message: string;
}

export function parseVbenchResults(text: string): {
  results: VbenchResult[];
  issues: VbenchIssue[];
  aggregates: Record<string, unknown>;
} {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`The file is not JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (!json || typeof json !== "object" || Array.isArray(json))
    throw new ValidationError(
      "VBench results are a JSON object: {<dimension>: [<aggregate>, [{video_path, video_results}, …]]}.",
    );
  const results: VbenchResult[] = [];
  const issues: VbenchIssue[] = [];
  // Dimensions are the file's keys (`__proto__` among them): a Map, made an object's own keys at the end.
  const aggregates = new Map<string, unknown>();
  for (const [dimension, entry] of Object.entries(json as Record<string, unknown>)) {
    if (!Array.isArray(entry) || entry.length < 2 || !Array.isArray(entry[1])) {
      issues.push({
        dimension,
        index: null,
        videoPath: null,
        message: "not [<aggregate>, [per-video results]]: the dimension is skipped",
      });
      continue;
    }
    aggregates.set(dimension, entry[0]);
    for (const [index, item] of (entry[1] as unknown[]).entries()) {
      const record = item && typeof item === "object" ? (item as Record<string, unknown>) : null;
      const videoPath =
        typeof record?.video_path === "string" && record.video_path.trim() ? record.video_path.trim() : null;
      if (!record || !videoPath) {
        issues.push({ dimension, index, videoPath: null, message: "no video_path: skipped" });
        continue;
      }
      const raw = record.video_results;
      const value =
        typeof raw === "boolean" ? (raw ? 1 : 0) : typeof raw === "number" && Number.isFinite(raw) ? raw : null;
      if (value === null) {
        issues.push({
          dimension,
          index,
          videoPath,
          message: `video_results is ${raw === undefined ? "missing" : "not a number or a boolean"}: skipped`,
        });
        continue;
      }
      results.push({ dimension, index, videoPath, value });
    }
  }
  if (aggregates.size === 0) throw new ValidationError("No dimension in the file has per-video results.");
  return { results, issues, aggregates: Object.fromEntries(aggregates) };
}
