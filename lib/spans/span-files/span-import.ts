/**
 * Importing spans as a label set: a file in one of the span file formats the table reads (span-file-formats.ts: a
 * CSV or JSONL of spans, a Label Studio export of video annotations), named by its id. Every row is matched to a
 * video, converted with that video's frame times and checked as a reviewer's span is (spanProblem); a dry run lists
 * every problem with its row, and an import with any problem is a 400 that lists them and writes nothing. The label
 * set and all its spans are written in one transaction; each annotator is a rater `labelset:<id>[:<annotator>]`, as
 * the label sets of judgments are. Its annotators are people: rows of a judge run or of the gold (by `author_kind`,
 * or an annotator named `run:…` or `gold`) are refused, so an export imported again never makes them people.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { AppError, isAppError, ValidationError } from "../../errors";
import { labelSetReviewerId } from "../../label-sets/label-set-reviewer";
import { labelSetImportFieldsSchema } from "../../label-sets/label-sets.validation";
import { requireFreeName, sha256Of } from "../../label-sets/label-sets";
import type { ObjectStorage } from "../../storage/object-storage";
import type { DeclarationCatalogue } from "../../task-modules/declaration-catalogue";
import type { TaskDeclaration } from "../../task-modules/task-declaration";
import { hasNulByte, NUL_BYTE_MESSAGE, rejectNulBytesInFile } from "../../validation/nul-bytes";
import type { FrameTimes } from "../../frames/frame-times";
import { projectSpanLabels, type SpanLabel, spanLabelsFor } from "../span-labels";
import { insertSpans, type NewSpan } from "../span-store";
import { videoFrameTimes } from "../../videos/video-frame-times";
import {
  requireSpanImportFormatId,
  SPAN_IMPORT_FORMATS,
  type SpanFileReader,
  type SpanImportFormatId,
  type SpanReadFormatId,
  spanReadFormat,
} from "./span-file-formats";
import { tooManySpansError } from "./span-file-limit";
import {
  MAX_LISTED_PROBLEMS,
  MAX_SPAN_FILE_ROWS,
  type ParsedSpanFile,
  type SpanFileProblem,
  type SpanFileRow,
} from "./span-file-types";
import { notAPersonProblem, resolveRow, type VideoMatchKind, videoMatcher } from "./span-resolve";
import type { SpanImportAnswer } from "./span-import.types";

export interface SpanImportInput {
  file: Uint8Array;
  fileName: string;
  name: string;
  citation?: string;
  /** A span file format's id, or an older alias of one (span-file-formats.ts). */
  format: SpanImportFormatId;
  /** The task of rows that name none. */
  task: string;
  dryRun: boolean;
}

/**
 * The label-set import's multipart fields, the span file formats among its formats: label sets cannot name the
 * span formats themselves (spans import label sets), so the import of both composes them here.
 */
export const labelSetImportFields = (catalogue: DeclarationCatalogue) =>
  labelSetImportFieldsSchema(catalogue, SPAN_IMPORT_FORMATS);

/** Some rows cannot be imported: nothing was written; `details.problems` lists them (capped) with their rows. */
export class SpanFileError extends AppError {
  constructor(problems: readonly SpanFileProblem[]) {
    const first = problems[0]!;
    super(
      400,
      "invalid_request",
      `${problems.length} row${problems.length === 1 ? "" : "s"} of the file cannot be imported (${first.where}: ${first.message}${problems.length > 1 ? " …" : ""}); nothing was imported.`,
      { problems: problems.slice(0, MAX_LISTED_PROBLEMS), problemCount: problems.length },
    );
  }
}

/**
 * Moves the rows with a NUL in any text field to the problems, naming the field. The raw file was checked for NUL
 * bytes, but JSON decodes `\u0000` into one after that check, and PostgreSQL text cannot hold it.
 */
function withoutNulRows(parsed: ParsedSpanFile, textFields: SpanFileReader["textFields"]): ParsedSpanFile {
  const rows: SpanFileRow[] = [];
  const problems = [...parsed.problems];
  const listed = new Set<string>();
  for (const row of parsed.rows) {
    const field = textFields.find(([key]) => {
      const value = row[key];
      return typeof value === "string" && hasNulByte(value);
    });
    if (!field) {
      rows.push(row);
      continue;
    }
    const message = `${field[1]}: ${NUL_BYTE_MESSAGE}.`;
    // A Label Studio result of several labels is several rows of one place: it is listed once.
    if (listed.has(`${row.row}\u0001${message}`)) continue;
    listed.add(`${row.row}\u0001${message}`);
    problems.push({ row: row.row, where: row.where, message });
  }
  return { rows, problems };
}

/**
 * The file read as UTF-8 and parsed by its format's reader, with the id of the format it was read as (an alias
 * resolved); a format the table does not read is a 400 naming those it does, and more rows than MAX_SPAN_FILE_ROWS
 * a 413 naming the limit.
 */
export function readSpanFile(
  input: Pick<SpanImportInput, "file" | "fileName"> & { format: string },
): ParsedSpanFile & { format: SpanReadFormatId } {
  const id = requireSpanImportFormatId(input.format);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(input.file);
  } catch {
    throw new ValidationError("The file is not UTF-8 text.");
  }
  rejectNulBytesInFile(text, input.fileName);
  const format = spanReadFormat(id, { fileName: input.fileName, text });
  const reader: SpanFileReader = format.read;
  if (reader.rowPerLine) {
    let lines = 0;
    for (const line of text.split("\n")) if (line.trim()) lines++;
    if (lines > MAX_SPAN_FILE_ROWS) throw tooManySpansError(lines, { atLeast: false });
  }
  const parsed = reader.parse(text);
  const count = parsed.rows.length + parsed.problems.length;
  if (count > MAX_SPAN_FILE_ROWS) throw tooManySpansError(count, { atLeast: false });
  return { ...withoutNulRows(parsed, reader.textFields), format: format.id };
}

interface ImportContext {
  deps: { prisma: PrismaClient; storage: ObjectStorage };
  catalogue: { findTask(id: string): TaskDeclaration | null };
  projectLabels: SpanLabel[];
}

/** A row's span on its video, with its annotator and how its video was found (for the plan). */
type ResolvedSpan = NewSpan & { annotator: string; matchedBy: VideoMatchKind };

/** Each row's span on its video, or its problem; frame times are read once per video (and kept). */
async function resolveRows(
  projectId: string,
  rows: readonly SpanFileRow[],
  defaultTask: string,
  context: ImportContext,
): Promise<{ spans: ResolvedSpan[]; problems: SpanFileProblem[] }> {
  const { prisma } = context.deps;
  const videos = await prisma.video.findMany({
    where: { projectId },
    select: { id: true, fileName: true, relativePath: true },
  });
  const match = videoMatcher(videos);
  const labelsOf = new Map<string, SpanLabel[] | null>();
  const timesOf = new Map<string, FrameTimes | string>();
  const spans: ResolvedSpan[] = [];
  const problems: SpanFileProblem[] = [];
  for (const row of rows) {
    const problem = (message: string) => problems.push({ row: row.row, where: row.where, message });
    const notAPerson = notAPersonProblem(row);
    if (notAPerson) {
      problem(notAPerson);
      continue;
    }
    const video = match(row);
    if (typeof video === "string") {
      problem(video);
      continue;
    }
    const task = row.task ?? defaultTask;
    if (!labelsOf.has(task)) labelsOf.set(task, spanLabelsFor(task, context.catalogue, context.projectLabels));
    const labels = labelsOf.get(task);
    if (!labels) {
      problem(`"${task}" is not a task of this project.`);
      continue;
    }
    if (!timesOf.has(video.id)) {
      // The stored times only: an import, a dry run too, reads nothing from storage (a video without them says so).
      try {
        timesOf.set(video.id, await videoFrameTimes(context.deps, video));
      } catch (error) {
        if (!isAppError(error)) throw error;
        timesOf.set(video.id, `${video.relativePath}: ${error.message}`);
      }
    }
    const times = timesOf.get(video.id)!;
    if (typeof times === "string") {
      problem(times);
      continue;
    }
    const span = resolveRow(row, task, { times, labels });
    if (typeof span === "string") problem(span);
    else
      spans.push({
        ...span,
        projectId,
        videoId: video.id,
        authorKind: "label_set",
        authorId: "",
        annotator: row.annotator,
        matchedBy: video.matchedBy,
      });
  }
  return { spans, problems };
}

function countBy(keys: Iterable<string>): Record<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return Object.fromEntries(counts);
}

/** Reads a span file and plans the label set; imports it unless `dryRun` (owners: `videos.import`). */
export async function importSpanLabelSet(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  access: ProjectAccess<"videos.import">,
  input: SpanImportInput,
  catalogue: ImportContext["catalogue"],
) {
  const { prisma } = deps;
  const { actor, projectId } = access;
  const name = input.name.trim();
  if (!name) throw new ValidationError("Name the label set.");
  await requireFreeName(prisma, projectId, name);
  const parsed = readSpanFile(input);
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { spanLabels: true } });
  const projectLabels = projectSpanLabels(project.spanLabels);
  const resolved = await resolveRows(projectId, parsed.rows, input.task, { deps, catalogue, projectLabels });
  const problems = [...parsed.problems, ...resolved.problems].sort((a, b) => a.row - b.row);
  const sha256 = sha256Of(input.file);
  const plan = {
    name,
    fileName: input.fileName,
    sha256,
    format: parsed.format,
    rows: parsed.rows.length + parsed.problems.length,
    spans: resolved.spans.length,
    matchedVideos: new Set(resolved.spans.map((s) => s.videoId)).size,
    labels: countBy(resolved.spans.map((s) => `${s.task}:${s.label}`)),
    annotators: countBy(resolved.spans.flatMap((s) => (s.annotator ? [s.annotator] : []))),
    /** How many spans found their video by the file's id, by path, by file name. */
    matchedBy: countBy(resolved.spans.map((s) => s.matchedBy)),
    problems: problems.slice(0, MAX_LISTED_PROBLEMS),
    problemCount: problems.length,
  };
  if (input.dryRun) return { dryRun: true as const, plan, labelSet: null } satisfies SpanImportAnswer;
  if (problems.length) throw new SpanFileError(problems);
  if (resolved.spans.length === 0) throw new ValidationError("Nothing to import: the file holds no span.");
  const annotators = [...new Set(resolved.spans.flatMap((s) => (s.annotator ? [s.annotator] : [])))].sort();
  const labelSet = await prisma.$transaction(
    async (tx) => {
      const set = await tx.labelSet.create({
        data: {
          projectId,
          name,
          format: parsed.format,
          fileName: input.fileName,
          sha256,
          citation: input.citation?.trim() ?? "",
          importedById: actor.userId,
          annotators,
        },
      });
      const spans = resolved.spans.map(({ annotator, matchedBy: _matchedBy, ...span }) => ({
        ...span,
        authorId: labelSetReviewerId(set.id, annotator || null),
        labelSetId: set.id,
      }));
      const written = await insertSpans(tx, spans, actor.userId);
      return { ...set, spans: written };
    },
    { timeout: 120_000 },
  );
  return { dryRun: false as const, plan, labelSet } satisfies SpanImportAnswer;
}
