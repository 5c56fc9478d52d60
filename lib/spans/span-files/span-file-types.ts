/**
 * What a span file holds once read, before it meets the project: one row per span, each naming its video as the
 * file does, its label, its stretch in frames or seconds, its boxes, task, annotator and note. The readers (CSV,
 * JSONL, Label Studio) produce these rows; the importer (span-import.ts) matches videos, converts seconds with each
 * video's frame times and checks every row with spanProblem. Plain data: the browser imports it too.
 */
import type { BoxKeyframe } from "../span-types";

/** A file may hold at most this many spans: more is a 413 before any row is matched (see docs/guide/spans.md). */
export const MAX_SPAN_FILE_ROWS = 50_000;

/** At most this many problems are listed in an answer; the count says how many there were. */
export const MAX_LISTED_PROBLEMS = 200;

export interface SpanFileRow {
  /** Where the row is, for problems: the CSV record's line (the header is 1), the JSONL line, or the n-th span. */
  row: number;
  /** The same place in words ("line 4", "task 2, annotation 1, result 3"). */
  where: string;
  /** The video as the file names it: a path, a file name, a URL ending in one, or a FrameJury video id ('' for none). */
  video: string;
  /**
   * The FrameJury video id the file gives beside it (`video_id`, `framejury_video_id`, the id in the app's file URL):
   * used when it is a video of this project, else the video is matched by `video` (a file exported from another
   * project with the same clips names them by path too).
   */
  videoId?: string;
  label: string;
  /** The task whose labels it uses; absent: the one chosen for the import. */
  task?: string;
  /** The annotator ('' for none: the label set itself). */
  annotator: string;
  /**
   * The kind of author the file says wrote the span (`author_kind`, as the export writes it: `reviewer`, `label_set`,
   * `judge` or `gold`); absent when the file does not say.
   */
  authorKind?: string;
  startFrame?: number;
  /** Absent with startFrame given: the span lasts to the video's last frame (a Label Studio box never closed). */
  endFrame?: number;
  startS?: number;
  endS?: number;
  boxes: BoxKeyframe[];
  note: string;
}

export interface SpanFileProblem {
  row: number;
  where: string;
  message: string;
}

export interface ParsedSpanFile {
  rows: SpanFileRow[];
  problems: SpanFileProblem[];
}

/** A span as the writers read it: its fields, its video's names, and a readable name of its author. */
export interface ExportSpan {
  videoId: string;
  videoPath: string;
  fileName: string;
  task: string;
  label: string;
  /** The annotator column: a label set's annotator, else the author id (a user id, `run:<id>`, `gold`). */
  annotator: string;
  authorKind: string;
  startFrame: number;
  endFrame: number;
  startS: number;
  endS: number;
  boxes: BoxKeyframe[];
  note: string;
}
