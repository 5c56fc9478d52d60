/**
 * Reading step annotations, the input of Q&A construction (seed 004, InstructionBench): one record per
 * video, as JSONL, a JSON array, or CSV with one row per step.
 *
 *     {"video", "theme"?, "duration"?, "dataset"?: "hirest" | "youcook2" | "ego4d-goalstep" | "egoexo4d" | "generic",
 *      "perspective"?: "first-person" | "third-person",
 *      "steps": [{"start", "end", "text", "category"?, "substeps"?: [{"start", "end", "text", "category"?}]}]}
 *
 * Times are seconds from the video's start. `category` is the step's label in the dataset's taxonomy (Ego4D
 * Goal-Step's "Add butter to a pan" for the free text "heat butter"); the seed's Ego4D and Ego-Exo4D templates
 * print both, and the trimming rules count distinct categories (the text when a step has none). CSV columns:
 * video, start, end, text, and optionally theme, duration, dataset, perspective, category, and level ("step" or
 * "substep": a substep belongs to the step row above it of the same video).
 *
 * All or nothing, as question sets: every record, or every error with its line. Steps must be in time order,
 * start at or after 0, end after they start, and end at or before the duration when one is given.
 */
import { z } from "zod";
import {
  type CaptionSetError,
  decodeCaptionFile,
  listedErrors,
  MAX_CAPTION_BYTES,
  utf8Bytes,
} from "../captions/caption-sets";
import { parseCsvTable } from "../../import/csv";
import {
  jsonArrayRecords,
  jsonlRecords,
  type RawRecord,
  type RecordFileFormat,
  recordFileFormat,
} from "../../import/json-records";
import { videoBaseName, videoFileNameMatcher } from "../../import/video-file-names";

export type StepAnnotationError = CaptionSetError;

export const ANNOTATION_DATASETS = ["hirest", "youcook2", "ego4d-goalstep", "egoexo4d", "generic"] as const;
export type AnnotationDataset = (typeof ANNOTATION_DATASETS)[number];
/** Seed 004's Table 10 words a first-person system message for egocentric data; the generalized template offers both. */
export const VIDEO_PERSPECTIVES = ["first-person", "third-person"] as const;
export type VideoPerspective = (typeof VIDEO_PERSPECTIVES)[number];
/** A video with more steps is refused: it is a file mistake, not an annotation (Ego4D Goal-Step's longest has a few hundred). */
export const MAX_STEPS_PER_VIDEO = 5000;

export interface AnnotatedStep {
  start: number;
  end: number;
  text: string;
  category: string | null;
  substeps: AnnotatedStep[];
}

export interface StepAnnotation {
  /** The video as the file names it. */
  video: string;
  /** The project video it matched (its relative path). */
  videoFileName: string;
  theme: string | null;
  duration: number | null;
  dataset: AnnotationDataset;
  /** Whether the video was filmed first-person (egocentric); null when the file does not say. */
  perspective: VideoPerspective | null;
  steps: AnnotatedStep[];
  line: number;
}

export type StepAnnotationResult =
  | { ok: true; annotations: StepAnnotation[] }
  | {
      ok: false;
      errors: StepAnnotationError[];
      /** Videos with no project video of that file name, each once. */ unmatchedVideos: string[];
    };

export type AnnotationFileFormat = RecordFileFormat;
export const annotationFileFormat = recordFileFormat;

const seconds = (what: string) =>
  z.union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+(\.\d+)?$/, `must be a number of seconds (${what})`)
        .transform(Number),
    ],
    {
      error: (issue) =>
        issue.input === undefined ? `missing (${what}, in seconds)` : `must be a number of seconds (${what})`,
    },
  );

const text = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `missing (${what})` : `must be a string (${what})`) })
    .refine((value) => value.trim() !== "", { error: `must not be empty (${what})` })
    .refine((value) => utf8Bytes(value) <= MAX_CAPTION_BYTES, {
      error: `is longer than ${MAX_CAPTION_BYTES / 1024} KiB (${what})`,
    })
    .transform((value) => value.trim());

const optionalText = z
  .union([z.string(), z.null()], { error: "must be a string" })
  .optional()
  .transform((value) => (value === undefined || value === null || value.trim() === "" ? null : value.trim()));

const substepSchema = z.object({
  start: seconds("the start"),
  end: seconds("the end"),
  text: text("what happens"),
  category: optionalText,
});
const stepSchema = substepSchema.extend({
  substeps: z.array(substepSchema, { error: "must be a list of steps" }).optional(),
});

const recordSchema = z.object({
  video: text("the video's file name"),
  theme: optionalText,
  duration: z.union([seconds("the video's duration"), z.null()]).optional(),
  dataset: z
    .union([z.string(), z.null()])
    .optional()
    .transform((value) =>
      value === undefined || value === null || value.trim() === "" ? "generic" : value.trim().toLowerCase(),
    )
    .refine((value): value is AnnotationDataset => (ANNOTATION_DATASETS as readonly string[]).includes(value), {
      error: (issue) => `must be one of ${ANNOTATION_DATASETS.join(", ")}, not ${JSON.stringify(issue.input)}`,
    }),
  perspective: z
    .union([z.string(), z.null()])
    .optional()
    .transform((value) =>
      value === undefined || value === null || value.trim() === "" ? null : value.trim().toLowerCase(),
    )
    .refine(
      (value): value is VideoPerspective | null =>
        value === null || (VIDEO_PERSPECTIVES as readonly string[]).includes(value),
      {
        error: (issue) => `must be one of ${VIDEO_PERSPECTIVES.join(", ")}, not ${JSON.stringify(issue.input)}`,
      },
    ),
  steps: z
    .array(stepSchema, {
      error: (issue) => (issue.input === undefined ? "missing (the video's steps)" : "must be a list of steps"),
    })
    .min(1, "must list at least one step")
    .max(MAX_STEPS_PER_VIDEO, `may list at most ${MAX_STEPS_PER_VIDEO} steps`),
});

const formatSeconds = (value: number) => `${value}s`;

/** Why these steps are not a valid annotation of a video of `duration` seconds; empty when they are. */
interface TimedStep {
  start: number;
  end: number;
  substeps: readonly TimedStep[];
}

export function stepProblems(steps: readonly TimedStep[], duration: number | null, path = "steps"): string[] {
  const problems: string[] = [];
  steps.forEach((step, index) => {
    const where = `${path}[${index + 1}]`;
    if (!Number.isFinite(step.start) || !Number.isFinite(step.end))
      problems.push(`${where}: start and end must be numbers`);
    if (step.start < 0) problems.push(`${where}: starts at ${formatSeconds(step.start)}; times cannot be negative`);
    if (step.end <= step.start)
      problems.push(`${where}: ends at ${formatSeconds(step.end)}, not after its start ${formatSeconds(step.start)}`);
    if (duration !== null && step.end > duration)
      problems.push(
        `${where}: ends at ${formatSeconds(step.end)}, after the video's duration ${formatSeconds(duration)}`,
      );
    const previous = steps[index - 1];
    if (previous && step.start < previous.start) {
      problems.push(
        `${where}: starts at ${formatSeconds(step.start)}, before the step above it (${formatSeconds(previous.start)}); steps must be in time order`,
      );
    }
    if (step.substeps.length) problems.push(...stepProblems(step.substeps, duration, `${where}.substeps`));
  });
  return problems;
}

const CSV_COLUMNS = [
  "video",
  "start",
  "end",
  "text",
  "theme",
  "duration",
  "dataset",
  "perspective",
  "category",
  "level",
] as const;

/** CSV rows (one per step) grouped into one record per video, in the order videos first appear. */
function csvRecords(content: string, errors: StepAnnotationError[]): RawRecord[] {
  const table = parseCsvTable(content);
  if (!table.ok) {
    const match = /^line (\d+): (.*)$/s.exec(table.error);
    errors.push(match ? { line: Number(match[1]), message: match[2]! } : { line: null, message: table.error });
    return [];
  }
  const lower = table.columns.map((c) => c.toLowerCase());
  const missing = ["video", "start", "end", "text"].filter((name) => !lower.includes(name));
  if (missing.length) {
    errors.push({
      line: 1,
      message: `the header has no ${missing.map((m) => `"${m}"`).join(", ")} column (columns: ${CSV_COLUMNS.join(", ")})`,
    });
    return [];
  }
  const unknown = table.columns.filter((c) => !(CSV_COLUMNS as readonly string[]).includes(c.toLowerCase()));
  if (unknown.length) {
    errors.push({
      line: 1,
      message: `unknown column ${unknown.map((c) => JSON.stringify(c)).join(", ")} (columns: ${CSV_COLUMNS.join(", ")})`,
    });
    return [];
  }
  const byVideo = new Map<string, { line: number; value: Record<string, unknown>; steps: Record<string, unknown>[] }>();
  for (const row of table.rows) {
    const cell = (name: string) => {
      const column = table.columns.find((c) => c.toLowerCase() === name);
      const value = column === undefined ? "" : (row.values.get(column) ?? "");
      return value.trim() === "" ? undefined : value;
    };
    const video = cell("video") ?? "";
    let record = byVideo.get(video);
    if (!record) {
      record = { line: row.line, value: { video: video || undefined }, steps: [] };
      byVideo.set(video, record);
    }
    for (const field of ["theme", "duration", "dataset", "perspective"] as const) {
      const value = cell(field);
      if (value === undefined) continue;
      const earlier = record.value[field];
      if (earlier !== undefined && earlier !== value) {
        errors.push({
          line: row.line,
          message: `${field}: ${JSON.stringify(value)} differs from ${JSON.stringify(earlier)} given for the same video on line ${record.line}`,
        });
      } else record.value[field] = value;
    }
    const step = { start: cell("start"), end: cell("end"), text: cell("text"), category: cell("category") };
    const level = (cell("level") ?? "step").toLowerCase();
    if (level === "substep") {
      const parent = record.steps.at(-1);
      if (!parent)
        errors.push({ line: row.line, message: "level: a substep needs a step row above it for the same video" });
      else (parent.substeps as Record<string, unknown>[]).push(step);
    } else if (level === "step") record.steps.push({ ...step, substeps: [] });
    else
      errors.push({
        line: row.line,
        message: `level: must be "step" or "substep", not ${JSON.stringify(cell("level"))}`,
      });
  }
  return [...byVideo.values()].map((record) => ({
    line: record.line,
    value: { ...record.value, steps: record.steps },
  }));
}

/**
 * The file's annotations, each matched to one project video by file name; every problem with its line
 * otherwise. `format` comes from the file name when known, else from the first character.
 */
export function parseStepAnnotations(
  bytes: Uint8Array,
  projectVideoFileNames: readonly string[],
  options: { format?: AnnotationFileFormat } = {},
): StepAnnotationResult {
  const decoded = decodeCaptionFile(bytes);
  if (!decoded.ok) return { ok: false, errors: [decoded.error], unmatchedVideos: [] };
  const content = decoded.text;
  if (content.trim() === "")
    return { ok: false, errors: [{ line: null, message: "the file has no annotations" }], unmatchedVideos: [] };
  const errors: StepAnnotationError[] = [];
  const first = content.trimStart()[0];
  const format = options.format ?? (first === "[" ? "json" : first === "{" ? "jsonl" : "csv");
  const records =
    format === "csv"
      ? csvRecords(content, errors)
      : format === "json" && first !== "{"
        ? jsonArrayRecords(content, errors, "video's annotation")
        : jsonlRecords(content, errors, "video's annotation");
  if (records.length === 0 && errors.length === 0) errors.push({ line: null, message: "the file has no annotations" });

  const matchVideo = videoFileNameMatcher(projectVideoFileNames);
  const firstLineOfVideo = new Map<string, number>();
  const unmatched = new Set<string>();
  const annotations: StepAnnotation[] = [];
  for (const record of records) {
    // Registered before validation, so a second record of a video is reported even when the first is broken.
    const rawVideo = typeof record.value.video === "string" ? videoBaseName(record.value.video.trim()) : null;
    const previous = rawVideo === null ? undefined : firstLineOfVideo.get(rawVideo);
    if (rawVideo !== null && previous === undefined) firstLineOfVideo.set(rawVideo, record.line);
    const parsed = recordSchema.safeParse(record.value);
    if (!parsed.success) {
      errors.push(
        ...parsed.error.issues.map((issue) => ({
          line: record.line,
          message: `${
            issue.path.length
              ? issue.path
                  .map((p) => (typeof p === "number" ? `[${p + 1}]` : p))
                  .join(".")
                  .replace(/\.\[/g, "[")
              : "the record"
          }: ${issue.message}`,
        })),
      );
      continue;
    }
    const { video, theme, duration, dataset, perspective } = parsed.data;
    const steps: AnnotatedStep[] = parsed.data.steps.map((step) => ({
      start: step.start,
      end: step.end,
      text: step.text,
      category: step.category,
      substeps: (step.substeps ?? []).map((sub) => ({
        start: sub.start,
        end: sub.end,
        text: sub.text,
        category: sub.category,
        substeps: [],
      })),
    }));
    const lineErrors: string[] = [];
    if (duration !== undefined && duration !== null && !(duration > 0))
      lineErrors.push(`duration: must be more than 0 seconds, not ${duration}`);
    lineErrors.push(...stepProblems(steps, duration ?? null));
    if (previous !== undefined)
      lineErrors.push(
        `video ${JSON.stringify(video)} is annotated again (first on line ${previous}); give each video one record`,
      );
    const match = matchVideo(video);
    if (!match.ok) {
      lineErrors.push(match.message);
      if (match.unmatched) unmatched.add(video);
    }
    if (lineErrors.length || !match.ok) {
      errors.push(...lineErrors.map((message) => ({ line: record.line, message })));
      continue;
    }
    annotations.push({
      video,
      videoFileName: match.fileName,
      theme,
      duration: duration ?? null,
      dataset,
      perspective,
      steps,
      line: record.line,
    });
  }
  if (errors.length === 0) return { ok: true, annotations };
  return { ok: false, errors: listedErrors(errors), unmatchedVideos: [...unmatched] };
}
