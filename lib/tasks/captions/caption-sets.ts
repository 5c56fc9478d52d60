/**
 * Reading caption sets: AnyCapEval's reference JSONL and models' outputs (JSONL or CSV), from the file's bytes.
 *
 * All or nothing: a parse returns either every item or every error it found (each with its line), never a
 * part of the file, so an import can never leave half a set behind. Lines are 1-based; a CSV error names
 * the line its record starts on.
 *
 * Text must be UTF-8 (a byte order mark is dropped); anything else is refused rather than decoded into
 * replacement characters that would then be judged. Every caption, instruction and reference is limited to
 * MAX_CAPTION_BYTES, so a runaway generation (a 10 MB "caption") is refused with a message instead of being
 * sent to a judge.
 */
import { z } from "zod";
import { findColumn, parseCsvTable } from "../../import/csv";
import { videoBaseName, videoFileNameMatcher } from "../../import/video-file-names";
import { MAX_ITEM_SET_FILE_BYTES } from "../../task-modules/item-set-kind";
import { MAX_MODEL_NAME_LENGTH } from "../../items/items.validation";
import { promptCaptionType } from "./caption-types";

/** Largest caption, instruction or reference text accepted, in UTF-8 bytes. Real captions are well under 4 KiB. */
export const MAX_CAPTION_BYTES = 64 * 1024;
/** Largest caption set file accepted, in bytes: any item set file's limit. */
const MAX_CAPTION_SET_FILE_BYTES = MAX_ITEM_SET_FILE_BYTES;
/** Errors listed in full; beyond this a final entry says how many more there were. */
export const MAX_LISTED_ERRORS = 200;

export interface CaptionSetError {
  /** 1-based line in the file, or null for an error about the whole file. */
  line: number | null;
  message: string;
}

export type CaptionSetResult<T> = { ok: true; items: T[] } | { ok: false; errors: CaptionSetError[] };

export interface CaptionReference {
  /** AnyCapEval's id, as text (the files use numbers). */
  id: string;
  /** The video file name as the reference set gives it. */
  video: string;
  /** The project video it matched: the project's own file name. */
  videoFileName: string;
  instruction: string;
  reference: string;
  /** The stored type, as the file gives it ("theme" stays "theme"). */
  captionType: string;
  /** The type as the rubric prompt names it ("theme" → "style"). */
  promptCaptionType: string;
  /** AnyCapEval's restriction rule text (`restriction[1]`). */
  restriction: string;
  /** The content judge's key points; null when the item has none. */
  keyPoints: string[] | null;
  line: number;
}

export type ReferenceSetResult =
  | { ok: true; items: CaptionReference[] }
  | {
      ok: false;
      errors: CaptionSetError[];
      /** Reference videos with no project video of that file name, each once. */ unmatchedVideos: string[];
    };

export interface ModelOutput {
  referenceId: string;
  model: string;
  output: string;
  line: number;
}

/** UTF-8 length without encoding the text (the import page runs this in the browser, where there is no Buffer). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** The file's text, or the reason it is not UTF-8 text with the first line that is not. */
export function decodeCaptionFile(
  bytes: Uint8Array,
): { ok: true; text: string } | { ok: false; error: CaptionSetError } {
  if (bytes.byteLength > MAX_CAPTION_SET_FILE_BYTES) {
    return {
      ok: false,
      error: {
        line: null,
        message: `the file is ${formatBytes(bytes.byteLength)}; a caption set file may be at most ${formatBytes(MAX_CAPTION_SET_FILE_BYTES)}`,
      },
    };
  }
  try {
    // fatal: invalid bytes throw instead of becoming U+FFFD; the BOM is dropped by default (ignoreBOM: false).
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    let line = 1;
    let start = 0;
    const decoder = new TextDecoder("utf-8", { fatal: true });
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          decoder.decode(bytes.subarray(start, i));
        } catch {
          break;
        }
        line += 1;
        start = i + 1;
      }
    }
    return { ok: false, error: { line, message: "the file is not UTF-8 text (save it as UTF-8 and import it again)" } };
  }
}

/** Errors in line order, at most MAX_LISTED_ERRORS of them and then one that says how many more there were. */
export function listedErrors(errors: readonly CaptionSetError[]): CaptionSetError[] {
  const sorted = [...errors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (sorted.length <= MAX_LISTED_ERRORS) return sorted;
  return [
    ...sorted.slice(0, MAX_LISTED_ERRORS),
    { line: null, message: `and ${sorted.length - MAX_LISTED_ERRORS} more errors` },
  ];
}

function finish<T>(items: T[], errors: CaptionSetError[]): CaptionSetResult<T> {
  return errors.length === 0 ? { ok: true, items } : { ok: false, errors: listedErrors(errors) };
}

/** Non-empty JSONL lines with their numbers; a blank line is allowed (files often end with one). */
function jsonlLines(text: string): { line: number; text: string }[] {
  return text
    .split(/\r?\n|\r/)
    .map((lineText, index) => ({ line: index + 1, text: lineText }))
    .filter((entry) => entry.text.trim() !== "");
}

function parseJsonLine(
  entry: { line: number; text: string },
  errors: CaptionSetError[],
): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(entry.text);
  } catch (error) {
    errors.push({
      line: entry.line,
      message: `not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    });
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    errors.push({ line: entry.line, message: "each line must be one JSON object" });
    return null;
  }
  return value as Record<string, unknown>;
}

function zodErrors(line: number, error: z.ZodError): CaptionSetError[] {
  return error.issues.map((issue) => ({
    line,
    message: `${issue.path.length ? issue.path.join(".") : "the line"}: ${issue.message}`,
  }));
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
    .refine((value) => utf8Bytes(value) <= MAX_CAPTION_BYTES, {
      error: (issue) =>
        `is ${formatBytes(utf8Bytes(issue.input as string))}; a text may be at most ${formatBytes(MAX_CAPTION_BYTES)}`,
    });

const nonEmptyText = (what: string) =>
  text(what).refine((value) => value.trim() !== "", { error: `must not be empty (${what})` });

const conversationSchema = z.object({
  from: z.string({ error: 'missing ("human" or "gpt")' }),
  value: z.string({ error: "missing (the message text)" }),
});

const referenceLineSchema = z.object({
  id: idSchema,
  video: nonEmptyText("the video's file name"),
  conversations: z
    .array(conversationSchema, { error: "missing (a list of {from, value} messages)" })
    .superRefine((messages, ctx) => {
      for (const role of ["human", "gpt"]) {
        if (!messages.some((message) => message.from === role)) {
          ctx.addIssue({
            code: "custom",
            message: `has no message from "${role}" (${role === "human" ? "the instruction" : "the reference caption"})`,
          });
        }
      }
    }),
  restriction: z.tuple([nonEmptyText("the caption type"), text("the rule text")], {
    error: (issue) =>
      issue.input === undefined ? "missing ([<caption type>, <rule text>])" : "must be [<caption type>, <rule text>]",
  }),
  key_point: z.array(nonEmptyText("a key point"), { error: "must be a list of strings" }).optional(),
});

export { videoBaseName };

// Instructions copied from training data sometimes keep the model's media placeholder.
const MEDIA_PLACEHOLDER = /^\s*<(?:video|image)>\s*/i;

/**
 * AnyCapEval's reference JSONL. Each item's video is matched against the project's video file names by
 * base name, case-sensitively; a reference whose video is missing, or whose name fits several project videos,
 * is an error, and the missing names are also returned as a list.
 */
export function parseReferenceSet(bytes: Uint8Array, projectVideoFileNames: readonly string[]): ReferenceSetResult {
  const decoded = decodeCaptionFile(bytes);
  if (!decoded.ok) return { ok: false, errors: [decoded.error], unmatchedVideos: [] };

  const matchVideo = videoFileNameMatcher(projectVideoFileNames);
  const errors: CaptionSetError[] = [];
  const items: CaptionReference[] = [];
  const firstLineOfId = new Map<string, number>();
  const unmatched = new Set<string>();
  const lines = jsonlLines(decoded.text);
  if (lines.length === 0) errors.push({ line: null, message: "the file has no references" });

  for (const entry of lines) {
    const value = parseJsonLine(entry, errors);
    if (!value) continue;
    const parsed = referenceLineSchema.safeParse(value);
    if (!parsed.success) {
      errors.push(...zodErrors(entry.line, parsed.error));
      continue;
    }
    const { id, video, conversations, restriction, key_point } = parsed.data;
    const instruction = conversations.find((message) => message.from === "human")!.value.replace(MEDIA_PLACEHOLDER, "");
    const reference = conversations.find((message) => message.from === "gpt")!.value;
    const lineErrors: string[] = [];
    for (const [name, value] of [
      ["instruction", instruction],
      ["reference caption", reference],
    ] as const) {
      if (utf8Bytes(value) > MAX_CAPTION_BYTES)
        lineErrors.push(
          `the ${name} is ${formatBytes(utf8Bytes(value))}; a text may be at most ${formatBytes(MAX_CAPTION_BYTES)}`,
        );
    }
    if (instruction.trim() === "") lineErrors.push('the instruction (the "human" message) is empty');
    const previous = firstLineOfId.get(id);
    if (previous !== undefined) lineErrors.push(`id ${JSON.stringify(id)} is used again (first on line ${previous})`);
    else firstLineOfId.set(id, entry.line);
    const match = matchVideo(video);
    if (!match.ok) {
      lineErrors.push(match.message);
      if (match.unmatched) unmatched.add(video);
    }
    if (lineErrors.length || !match.ok) {
      errors.push(...lineErrors.map((message) => ({ line: entry.line, message })));
      continue;
    }
    const captionType = restriction[0].trim();
    items.push({
      id,
      video,
      videoFileName: match.fileName,
      instruction,
      reference,
      captionType,
      promptCaptionType: promptCaptionType(captionType),
      restriction: restriction[1],
      keyPoints: key_point ?? null,
      line: entry.line,
    });
  }
  const result = finish(items, errors);
  return result.ok ? result : { ...result, unmatchedVideos: [...unmatched] };
}

export type OutputFileFormat = "jsonl" | "csv";

export interface ModelOutputsOptions {
  /** The name the outputs are stored under; several models go against one reference set. */
  model: string;
  /** From the file name; when omitted, a file whose first character is "{" is JSONL, anything else CSV. */
  format?: OutputFileFormat;
  references: readonly Pick<CaptionReference, "id" | "video" | "captionType">[];
}

/** "jsonl" for .jsonl/.json/.ndjson files, "csv" for .csv, else null (let the content decide). */
export function outputFileFormat(fileName: string): OutputFileFormat | null {
  const lower = fileName.toLowerCase();
  if (/\.(jsonl|ndjson|json)$/.test(lower)) return "jsonl";
  if (lower.endsWith(".csv")) return "csv";
  return null;
}

interface RawOutput {
  line: number;
  id: string | null;
  video: string | null;
  type: string | null;
  output: unknown;
}

const modelNameSchema = z
  .string()
  .trim()
  .min(1, "the model name must not be empty")
  .max(MAX_MODEL_NAME_LENGTH, `the model name may be at most ${MAX_MODEL_NAME_LENGTH} characters`)
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), "the model name must not contain control characters");

const optionalField = (what: string) =>
  z.union([z.string(), z.number().int().nonnegative(), z.null()], { error: `must be a string (${what})` }).optional();

/** A given, non-blank value as trimmed text; absent, null and blank are all "not given". */
function givenText(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = String(value).trim();
  return trimmed === "" ? null : trimmed;
}

const outputLineSchema = z.object({
  id: optionalField("the reference id"),
  video: optionalField("the video's file name"),
  type: optionalField("the caption type"),
  output: z.unknown().optional(),
});

function rawOutputsFromJsonl(text: string, errors: CaptionSetError[]): RawOutput[] {
  const rows: RawOutput[] = [];
  for (const entry of jsonlLines(text)) {
    const value = parseJsonLine(entry, errors);
    if (!value) continue;
    const parsed = outputLineSchema.safeParse(value);
    if (!parsed.success) {
      errors.push(...zodErrors(entry.line, parsed.error));
      continue;
    }
    const { id, video, type, output } = parsed.data;
    rows.push({ line: entry.line, id: givenText(id), video: givenText(video), type: givenText(type), output });
  }
  return rows;
}

function rawOutputsFromCsv(text: string, errors: CaptionSetError[]): RawOutput[] {
  const table = parseCsvTable(text);
  if (!table.ok) {
    const match = /^line (\d+): (.*)$/s.exec(table.error);
    errors.push(match ? { line: Number(match[1]), message: match[2]! } : { line: null, message: table.error });
    return [];
  }
  const column = (names: string[]) => findColumn(table.columns, names);
  const [idColumn, videoColumn, typeColumn, outputColumn] = [
    column(["id"]),
    column(["video"]),
    column(["type"]),
    column(["output"]),
  ];
  if (!outputColumn) {
    errors.push({
      line: 1,
      message: 'the header has no "output" column (columns: id, output; or video, type, output)',
    });
    return [];
  }
  if (!idColumn && !(videoColumn && typeColumn)) {
    errors.push({
      line: 1,
      message:
        'the header needs an "id" column, or "video" and "type" columns, to say which reference each output answers',
    });
    return [];
  }
  const cell = (row: Map<string, string>, name: string | null) => {
    const value = name === null ? undefined : row.get(name)?.trim();
    return value ? value : null;
  };
  return table.rows.map((row) => ({
    line: row.line,
    id: cell(row.values, idColumn),
    video: cell(row.values, videoColumn),
    type: cell(row.values, typeColumn),
    output: row.values.get(outputColumn),
  }));
}

function sameType(referenceType: string, given: string): boolean {
  const lower = given.toLowerCase();
  return referenceType.toLowerCase() === lower || promptCaptionType(referenceType).toLowerCase() === lower;
}

/**
 * One model's outputs, `{id, output}` or `{video, type, output}` per line or row, each resolved to its
 * reference. Every output must answer exactly one reference, at most once; its text must be non-empty and
 * at most MAX_CAPTION_BYTES.
 */
export function parseModelOutputs(bytes: Uint8Array, options: ModelOutputsOptions): CaptionSetResult<ModelOutput> {
  const model = modelNameSchema.safeParse(options.model);
  if (!model.success) return { ok: false, errors: [{ line: null, message: model.error.issues[0]!.message }] };
  const decoded = decodeCaptionFile(bytes);
  if (!decoded.ok) return { ok: false, errors: [decoded.error] };

  if (decoded.text.trim() === "") return { ok: false, errors: [{ line: null, message: "the file has no outputs" }] };
  const errors: CaptionSetError[] = [];
  const format = options.format ?? (decoded.text.trimStart().startsWith("{") ? "jsonl" : "csv");
  const rows = format === "jsonl" ? rawOutputsFromJsonl(decoded.text, errors) : rawOutputsFromCsv(decoded.text, errors);
  if (rows.length === 0 && errors.length === 0) errors.push({ line: null, message: "the file has no outputs" });

  const referencesById = new Map(options.references.map((reference) => [reference.id, reference]));
  const firstLineOfReference = new Map<string, number>();
  const items: ModelOutput[] = [];

  for (const row of rows) {
    const rowErrors: string[] = [];
    let referenceId: string | null = null;
    if (row.id !== null) {
      const reference = referencesById.get(row.id);
      if (!reference) rowErrors.push(`id ${JSON.stringify(row.id)} has no reference in the reference set`);
      else if (row.video !== null && videoBaseName(row.video) !== videoBaseName(reference.video)) {
        rowErrors.push(
          `id ${JSON.stringify(row.id)} is a reference for video ${JSON.stringify(reference.video)}, not ${JSON.stringify(row.video)}`,
        );
      } else if (row.type !== null && !sameType(reference.captionType, row.type)) {
        rowErrors.push(`id ${JSON.stringify(row.id)} is a ${reference.captionType} reference, not ${row.type}`);
      } else referenceId = reference.id;
    } else if (row.video !== null && row.type !== null) {
      const matches = options.references.filter(
        (reference) =>
          videoBaseName(reference.video) === videoBaseName(row.video!) && sameType(reference.captionType, row.type!),
      );
      if (matches.length === 0)
        rowErrors.push(`no reference for video ${JSON.stringify(row.video)} with type ${JSON.stringify(row.type)}`);
      else if (matches.length > 1) {
        rowErrors.push(
          `video ${JSON.stringify(row.video)} with type ${JSON.stringify(row.type)} fits ${matches.length} references (ids ${matches.map((m) => m.id).join(", ")}); give the id instead`,
        );
      } else referenceId = matches[0]!.id;
    } else {
      rowErrors.push('needs an "id", or a "video" and a "type", to say which reference it answers');
    }

    if (typeof row.output !== "string")
      rowErrors.push(row.output === undefined || row.output === null ? "output: missing" : "output: must be a string");
    else if (row.output.trim() === "") rowErrors.push("output: is empty");
    else if (utf8Bytes(row.output) > MAX_CAPTION_BYTES) {
      rowErrors.push(
        `output: is ${formatBytes(utf8Bytes(row.output))}; a caption may be at most ${formatBytes(MAX_CAPTION_BYTES)}`,
      );
    }

    if (referenceId !== null) {
      const previous = firstLineOfReference.get(referenceId);
      if (previous !== undefined)
        rowErrors.push(
          `a second output for reference id ${JSON.stringify(referenceId)} (the first is on line ${previous})`,
        );
      else firstLineOfReference.set(referenceId, row.line);
    }
    if (rowErrors.length) {
      errors.push(...rowErrors.map((message) => ({ line: row.line, message })));
      continue;
    }
    items.push({ referenceId: referenceId!, model: model.data, output: row.output as string, line: row.line });
  }
  return finish(items, errors);
}
