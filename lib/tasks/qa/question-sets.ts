/**
 * Reading question sets: one question per record, as JSONL, a JSON array or CSV, from the file's bytes.
 *
 *     {"id", "video", "question", "format": "mc" | "open", "options"?: {"A": …, "B": …}, "answer",
 *      "category"?, "granularity"?: "coarse" | "fine", "extra"?: {…}}
 *
 * For "mc" the options are 2 to 10, lettered A, B, C… in order, and `answer` is one of their letters; an
 * "open" question has no options and its `answer` is the reference answer's text. In CSV, options are the
 * columns A…J (or `option_a`…) or one `options` column holding the JSON object; `extra` is a JSON column, and
 * any other column is kept in `extra` too.
 *
 * All or nothing, as caption sets: a parse returns every question or every error it found, each with its
 * line (1-based; a CSV record's first line; a JSON array element's first line). Questions are matched to
 * the project's videos by file name (the last path segment), exactly one video each. The same format is what
 * FrameJury's Q&A construction exports.
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
import { videoFileNameMatcher } from "../../import/video-file-names";
import { OPTION_LETTERS } from "./extract-letter";

export type QuestionSetError = CaptionSetError;

export const QUESTION_FORMATS = ["mc", "open"] as const;
export type QuestionFormat = (typeof QUESTION_FORMATS)[number];
export const GRANULARITIES = ["coarse", "fine"] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 10;
/** Longest category name accepted. */
export const MAX_CATEGORY_LENGTH = 100;

export interface Question {
  id: string;
  /** The video file name as the set gives it. */
  video: string;
  /** The project video it matched (its relative path). */
  videoFileName: string;
  question: string;
  format: QuestionFormat;
  /** Letter → text, in letter order; null for open questions. */
  options: Record<string, string> | null;
  /** The correct letter (mc) or the reference answer (open). */
  answer: string;
  category: string | null;
  granularity: Granularity | null;
  extra: Record<string, unknown> | null;
  line: number;
}

export type QuestionSetResult =
  | { ok: true; questions: Question[] }
  | {
      ok: false;
      errors: QuestionSetError[];
      /** Videos with no project video of that file name, each once. */ unmatchedVideos: string[];
    };

export type QuestionFileFormat = RecordFileFormat;
export const questionFileFormat = recordFileFormat;

function formatBytes(bytes: number): string {
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}

const OPTION_COLUMN = /^(?:option[ _-]?)?([a-j])$/i;
const KNOWN_COLUMNS = new Set([
  "id",
  "video",
  "question",
  "format",
  "options",
  "answer",
  "category",
  "granularity",
  "extra",
]);

function csvRecords(text: string, errors: QuestionSetError[]): RawRecord[] {
  const table = parseCsvTable(text);
  if (!table.ok) {
    const match = /^line (\d+): (.*)$/s.exec(table.error);
    errors.push(match ? { line: Number(match[1]), message: match[2]! } : { line: null, message: table.error });
    return [];
  }
  const missing = ["id", "video", "question", "format", "answer"].filter(
    (name) => !table.columns.some((c) => c.toLowerCase() === name),
  );
  if (missing.length) {
    errors.push({
      line: 1,
      message: `the header has no ${missing.map((m) => `"${m}"`).join(", ")} column${missing.length > 1 ? "s" : ""} (columns: id, video, question, format, answer, options or A…J, category, granularity, extra)`,
    });
    return [];
  }
  return table.rows.map((row) => {
    const value: Record<string, unknown> = {};
    const options: Record<string, string> = {};
    // Other columns are the file's text (`__proto__` among them): kept in a Map, own keys of `extra`.
    const extra = new Map<string, unknown>();
    for (const [column, cell] of row.values) {
      const name = column.toLowerCase();
      const optionLetter = OPTION_COLUMN.exec(column)?.[1]?.toUpperCase();
      if (optionLetter && !KNOWN_COLUMNS.has(name)) {
        if (cell.trim() !== "") options[optionLetter] = cell;
      } else if (name === "options" || name === "extra") {
        if (cell.trim() === "") continue;
        try {
          value[name] = JSON.parse(cell);
        } catch {
          value[name] = NOT_JSON;
        }
      } else if (KNOWN_COLUMNS.has(name)) {
        if (cell.trim() !== "") value[name] = cell;
      } else if (cell.trim() !== "") extra.set(column, cell);
    }
    if (Object.keys(options).length && value.options === undefined) value.options = options;
    if (extra.size)
      value.extra = {
        ...(typeof value.extra === "object" && value.extra !== null ? (value.extra as Record<string, unknown>) : {}),
        ...Object.fromEntries(extra),
      };
    return { line: row.line, value };
  });
}

const idSchema = z
  .union([z.string().trim().min(1, "must not be empty"), z.number().int().nonnegative()], {
    error: (issue) =>
      issue.input === undefined ? "missing (a string or a whole number)" : "must be a string or a whole number",
  })
  .transform(String);

const text = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `missing (${what})` : `must be a string (${what})`) })
    .refine((value) => value.trim() !== "", { error: `must not be empty (${what})` })
    .refine((value) => utf8Bytes(value) <= MAX_CAPTION_BYTES, {
      error: (issue) =>
        `is ${formatBytes(utf8Bytes(issue.input as string))}; a text may be at most ${formatBytes(MAX_CAPTION_BYTES)}`,
    });

/** A CSV cell of the options or extra column that is not JSON (reported with the record's other problems). */
const NOT_JSON = Object.freeze({ notJson: true });
const notJson = (value: unknown) => value === NOT_JSON;

const recordSchema = z.object({
  id: idSchema,
  video: text("the video's file name"),
  question: text("the question"),
  format: z.enum(QUESTION_FORMATS, {
    error: (issue) =>
      issue.input === undefined
        ? 'missing ("mc" or "open")'
        : `must be "mc" or "open", not ${JSON.stringify(issue.input)}`,
  }),
  options: z.unknown().optional(),
  answer: z
    .union([z.string(), z.number()], {
      error: (issue) =>
        issue.input === undefined ? "missing (the correct letter, or the reference answer)" : "must be a string",
    })
    .transform(String),
  category: z
    .union([z.string(), z.null()], { error: "must be a string" })
    .optional()
    .transform((value) => (value === undefined || value === null || value.trim() === "" ? null : value.trim()))
    .refine(
      (value) => value === null || value.length <= MAX_CATEGORY_LENGTH,
      `may be at most ${MAX_CATEGORY_LENGTH} characters`,
    ),
  granularity: z
    .union([z.string(), z.null()], { error: 'must be "coarse" or "fine"' })
    .optional()
    .transform((value) =>
      value === undefined || value === null || value.trim() === "" ? null : value.trim().toLowerCase(),
    )
    .refine(
      (value): value is Granularity | null => value === null || (GRANULARITIES as readonly string[]).includes(value),
      {
        error: (issue) => `must be "coarse" or "fine", not ${JSON.stringify(issue.input)}`,
      },
    ),
  extra: z.unknown().optional(),
});

function optionErrors(options: unknown): { options: Record<string, string> | null; errors: string[] } {
  if (notJson(options))
    return { options: null, errors: ['options: the column is not a JSON object ({"A": …, "B": …})'] };
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    return {
      options: null,
      errors: [
        options === undefined || options === null
          ? 'options: missing (a multiple-choice question needs {"A": …, "B": …})'
          : 'options: must be an object {"A": …, "B": …}',
      ],
    };
  }
  const entries = Object.entries(options as Record<string, unknown>);
  const errors: string[] = [];
  if (entries.length < MIN_OPTIONS || entries.length > MAX_OPTIONS)
    errors.push(
      `options: has ${entries.length}; a multiple-choice question has ${MIN_OPTIONS} to ${MAX_OPTIONS} options`,
    );
  const letters = entries.map(([key]) => key.trim().toUpperCase());
  const expected = OPTION_LETTERS.slice(0, Math.min(entries.length, MAX_OPTIONS));
  const sorted = [...letters].sort();
  if (entries.length <= MAX_OPTIONS && sorted.join() !== expected.join()) {
    errors.push(
      `options: the letters are ${letters.map((l) => JSON.stringify(l)).join(", ")}; they must be ${expected.join(", ")} (consecutive from A)`,
    );
  }
  const result: Record<string, string> = {};
  for (const [key, value] of entries) {
    const letter = key.trim().toUpperCase();
    if (typeof value !== "string" || value.trim() === "") errors.push(`options.${key}: must be the option's text`);
    else if (utf8Bytes(value) > MAX_CAPTION_BYTES)
      errors.push(
        `options.${key}: is ${formatBytes(utf8Bytes(value))}; a text may be at most ${formatBytes(MAX_CAPTION_BYTES)}`,
      );
    else result[letter] = value;
  }
  return {
    options: errors.length
      ? null
      : Object.fromEntries(OPTION_LETTERS.filter((l) => l in result).map((l) => [l, result[l]!])),
    errors,
  };
}

/**
 * A question set's questions, each matched to one project video by file name; every problem with its line
 * otherwise. `format` comes from the file name when known, else from the first character.
 */
export function parseQuestionSet(
  bytes: Uint8Array,
  projectVideoFileNames: readonly string[],
  options: { format?: QuestionFileFormat } = {},
): QuestionSetResult {
  const decoded = decodeCaptionFile(bytes);
  if (!decoded.ok) return { ok: false, errors: [decoded.error], unmatchedVideos: [] };
  const content = decoded.text;
  if (content.trim() === "")
    return { ok: false, errors: [{ line: null, message: "the file has no questions" }], unmatchedVideos: [] };
  const errors: QuestionSetError[] = [];
  const first = content.trimStart()[0];
  const format = options.format ?? (first === "[" ? "json" : first === "{" ? "jsonl" : "csv");
  // A .json file may still be JSON Lines (one object per line); an array starts with "[".
  const records =
    format === "csv"
      ? csvRecords(content, errors)
      : format === "json" && first !== "{"
        ? jsonArrayRecords(content, errors, "question")
        : jsonlRecords(content, errors, "question");
  if (records.length === 0 && errors.length === 0) errors.push({ line: null, message: "the file has no questions" });

  const matchVideo = videoFileNameMatcher(projectVideoFileNames);
  const firstLineOfId = new Map<string, number>();
  const unmatched = new Set<string>();
  const questions: Question[] = [];

  for (const record of records) {
    const parsed = recordSchema.safeParse(record.value);
    if (!parsed.success) {
      errors.push(
        ...parsed.error.issues.map((issue) => ({
          line: record.line,
          message: `${issue.path.length ? issue.path.join(".") : "the record"}: ${issue.message}`,
        })),
      );
      continue;
    }
    const { id, video, question, format: questionFormat, answer, category, granularity, extra } = parsed.data;
    const lineErrors: string[] = [];
    let questionOptions: Record<string, string> | null = null;
    let correct = answer.trim();
    if (questionFormat === "mc") {
      const checked = optionErrors(parsed.data.options);
      lineErrors.push(...checked.errors);
      questionOptions = checked.options;
      const letter = correct.toUpperCase();
      if (!/^[A-Z]$/.test(letter))
        lineErrors.push(`answer: must be the correct option's letter, not ${JSON.stringify(answer)}`);
      else if (checked.options && !(letter in checked.options))
        lineErrors.push(`answer: ${letter} is not among the options (${Object.keys(checked.options).join(", ")})`);
      correct = letter;
    } else {
      if (parsed.data.options !== undefined && parsed.data.options !== null)
        lineErrors.push('options: an "open" question has no options (make it "mc", or leave options out)');
      if (correct === "") lineErrors.push("answer: must not be empty (the reference answer)");
      else if (utf8Bytes(answer) > MAX_CAPTION_BYTES)
        lineErrors.push(
          `answer: is ${formatBytes(utf8Bytes(answer))}; a text may be at most ${formatBytes(MAX_CAPTION_BYTES)}`,
        );
      correct = answer;
    }
    let extraObject: Record<string, unknown> | null = null;
    if (extra !== undefined && extra !== null) {
      if (notJson(extra) || typeof extra !== "object" || Array.isArray(extra))
        lineErrors.push("extra: must be a JSON object");
      else extraObject = extra as Record<string, unknown>;
    }
    const previous = firstLineOfId.get(id);
    if (previous !== undefined) lineErrors.push(`id ${JSON.stringify(id)} is used again (first on line ${previous})`);
    else firstLineOfId.set(id, record.line);
    const match = matchVideo(video);
    if (!match.ok) {
      lineErrors.push(match.message);
      if (match.unmatched) unmatched.add(video);
    }
    if (lineErrors.length || !match.ok) {
      errors.push(...lineErrors.map((message) => ({ line: record.line, message })));
      continue;
    }
    questions.push({
      id,
      video,
      videoFileName: match.fileName,
      question,
      format: questionFormat,
      options: questionOptions,
      answer: correct,
      category,
      granularity,
      extra: extraObject,
      line: record.line,
    });
  }

  if (errors.length === 0) return { ok: true, questions };
  return { ok: false, errors: listedErrors(errors), unmatchedVideos: [...unmatched] };
}
