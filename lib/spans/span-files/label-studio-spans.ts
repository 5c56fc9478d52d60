/**
 * Spans as Label Studio video annotations: the JSON export of tasks, each task's `annotations[].result[]` holding
 * `timelinelabels` results (`value.ranges[{start, end}]`, `value.timelinelabels[label]`) and `videorectangle` results
 * (`value.sequence[{frame, x, y, width, height, rotation, enabled, time}]` in percent of the frame, `value.labels`,
 * `value.framesCount`, `value.duration`). Read from Label Studio's editor source (HumanSignal/label-studio,
 * web/libs/editor/src): regions/TimelineRegion.js (ranges of integer frames, inclusive: a one-frame range has
 * start = end), regions/VideoRegion.js (`serialize`: framesCount, duration, sequence with `time = frame / framerate`;
 * `isInLifespan`: a box shows from a keyframe to the next, and after a keyframe with `enabled: false` only on that
 * frame), regions/VideoRectangleRegion.js (x, y, width, height, rotation interpolated between keyframes),
 * tags/object/Video/Video.js and components/VideoCanvas/VideoCanvas.tsx (frames count from 1: `frame: 1`,
 * `fullFrameRange = {start: 1, end: length}`, frame = round(currentTime × frameRate) clamped to 1..length).
 *
 * So Label Studio's frame n is FrameJury's frame index n − 1. The frame numbers are read, never `time` (Label Studio
 * derives it from a nominal frame rate). A videorectangle's span runs from its first keyframe to its last keyframe
 * when that one is not enabled (the box ends there), else to the video's last frame (Label Studio keeps showing it).
 * Each person's annotation is one annotator (`framejury_annotator` as this exporter writes it, else the annotator's
 * email, else `ls-user-<completed_by>`); predictions (a model's) and cancelled annotations are not read. A region's
 * `meta.text` is its note. Plain functions.
 */
import { z } from "zod";
import type { BoxKeyframe } from "../span-types";
import { tooManySpansError } from "./span-file-limit";
import {
  type ExportSpan,
  MAX_SPAN_FILE_ROWS,
  type ParsedSpanFile,
  type SpanFileProblem,
  type SpanFileRow,
} from "./span-file-types";

const percent = z.number().finite();
const keyframeSchema = z.object({
  frame: z.number().int().min(1),
  x: percent,
  y: percent,
  width: percent,
  height: percent,
  rotation: z.number().finite().optional(),
  enabled: z.boolean().optional(),
});
const metaSchema = z.object({ text: z.array(z.string()).optional() }).optional();
const timelineSchema = z.object({
  type: z.literal("timelinelabels"),
  value: z.object({
    ranges: z.array(z.object({ start: z.number().int().min(1), end: z.number().int().min(1) })).min(1),
    timelinelabels: z.array(z.string().min(1)).min(1),
  }),
  meta: metaSchema,
});
const rectangleSchema = z.object({
  type: z.literal("videorectangle"),
  value: z.object({ sequence: z.array(keyframeSchema).min(1), labels: z.array(z.string().min(1)).min(1) }),
  meta: metaSchema,
});
const annotationSchema = z.object({
  result: z.array(z.unknown()).default([]),
  was_cancelled: z.boolean().optional(),
  completed_by: z.unknown().optional(),
  framejury_annotator: z.string().optional(),
});
const taskSchema = z.object({
  id: z.unknown().optional(),
  data: z.record(z.string(), z.unknown()),
  annotations: z.array(annotationSchema).default([]),
});

/** A URL's or path's file path: a local-files URL's `?d=`, else its path undone of its escaping; or an app file id. */
function urlPath(url: string): { path: string } | { videoId: string } {
  // Label Studio's local-files storage names the file in the query: `/data/local-files/?d=clips/a.mp4`.
  const localFile = /^[^?#]*\/data\/local-files\/?\?(?:[^#]*&)?d=([^&#]+)/.exec(url)?.[1];
  // Else a URL's path, undone of its escaping: `/data/upload/3/ab12-clip.mp4?x=1` → `data/upload/3/ab12-clip.mp4`.
  const path = localFile ?? url.replace(/^[a-z]+:\/\/[^/]+/i, "").replace(/[?#].*$/, "");
  const fileRoute = /\/api\/v1\/videos\/([^/]+)\/file$/.exec(path);
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  if (fileRoute) return { videoId: decoded(fileRoute[1]!) };
  return { path: decoded(path).replace(/^\/+/, "") };
}

/**
 * The video a task names: an id (the exporter's `framejury_video_id`, or the id in an app file URL in `data.video`)
 * and a path (`data.path` as the exporter writes it, else `data.video`'s path, else the first text value). The
 * importer takes the id when it is a video of the project, else the path: a file from another project has both.
 */
export function taskVideo(data: Record<string, unknown>): { video: string; videoId?: string } | null {
  const own = (key: string) =>
    Object.hasOwn(data, key) && typeof data[key] === "string" ? (data[key] as string).trim() : "";
  const url =
    own("video") ||
    Object.values(data)
      .find((v): v is string => typeof v === "string")
      ?.trim() ||
    "";
  const fromUrl = url ? urlPath(url) : null;
  const videoId = own("framejury_video_id") || (fromUrl && "videoId" in fromUrl ? fromUrl.videoId : "");
  const video = own("path") || (fromUrl && "path" in fromUrl ? fromUrl.path : "");
  if (!video && !videoId) return null;
  return { video, ...(videoId ? { videoId } : {}) };
}

function annotatorOf(annotation: z.infer<typeof annotationSchema>): string {
  if (annotation.framejury_annotator !== undefined) return annotation.framejury_annotator.trim();
  const by = annotation.completed_by;
  if (typeof by === "object" && by !== null && typeof (by as { email?: unknown }).email === "string")
    return (by as { email: string }).email;
  if (typeof by === "number" || typeof by === "string") return `ls-user-${by}`;
  return "";
}

/** The boxes of a videorectangle's keyframes (percent → fractions; frames from 0) and where its span ends. */
function rectangleSpan(sequence: z.infer<typeof keyframeSchema>[]): { boxes: BoxKeyframe[]; end?: number } | string {
  const sorted = [...sequence].sort((a, b) => a.frame - b.frame);
  if (sorted.some((k) => (k.rotation ?? 0) !== 0)) return "A rotated box cannot be imported (rotation must be 0).";
  const boxes = sorted.map((k) => ({
    frame: k.frame - 1,
    x: k.x / 100,
    y: k.y / 100,
    w: k.width / 100,
    h: k.height / 100,
    enabled: k.enabled ?? true,
  }));
  const last = boxes[boxes.length - 1]!;
  return last.enabled ? { boxes } : { boxes, end: last.frame };
}

type ReadResult =
  | { kind: "timeline"; data: z.infer<typeof timelineSchema> }
  | { kind: "rectangle"; data: z.infer<typeof rectangleSchema> }
  | { problem: string }
  | null;

/** A result read (null: not a span result, such as a choice or a text area), before any span is built. */
function readResult(raw: unknown): ReadResult {
  const type = typeof raw === "object" && raw !== null ? (raw as { type?: unknown }).type : undefined;
  if (type !== "timelinelabels" && type !== "videorectangle") return null;
  const timeline = timelineSchema.safeParse(raw);
  if (timeline.success) return { kind: "timeline", data: timeline.data };
  const rectangle = rectangleSchema.safeParse(raw);
  if (rectangle.success) return { kind: "rectangle", data: rectangle.data };
  const issue = (type === "timelinelabels" ? timeline : rectangle).error?.issues[0]?.message;
  return { problem: `${String(type)}: ${issue ?? "not readable"}` };
}

/** How many spans a read result makes: one per label and range of a timeline, one per label of a box. */
function spanCountOf(result: ReadResult): number {
  if (result === null) return 0;
  if ("problem" in result) return 1;
  if (result.kind === "timeline") return result.data.value.timelinelabels.length * result.data.value.ranges.length;
  return result.data.value.labels.length;
}

type Built = { row: SpanFileRow } | { problem: string };

function resultSpans(
  result: Exclude<ReadResult, null>,
  base: Omit<SpanFileRow, "label" | "boxes" | "note" | "row">,
  row: number,
): Built[] {
  if ("problem" in result) return [result];
  const note = result.data.meta?.text?.join("\n") ?? "";
  if (result.kind === "timeline") {
    const { ranges, timelinelabels } = result.data.value;
    return timelinelabels.flatMap((label) =>
      ranges.map((r) => ({
        row: { ...base, row, label, note, boxes: [], startFrame: r.start - 1, endFrame: r.end - 1 },
      })),
    );
  }
  const span = rectangleSpan(result.data.value.sequence);
  if (typeof span === "string") return [{ problem: span }];
  return result.data.value.labels.map((label) => ({
    row: {
      ...base,
      row,
      label,
      note,
      boxes: span.boxes,
      startFrame: span.boxes[0]!.frame,
      ...(span.end === undefined ? {} : { endFrame: span.end }),
    },
  }));
}

/**
 * Reads a Label Studio JSON export (an array of tasks) into span rows, numbered in file order. Each result's spans
 * are counted before they are built: once the file's count passes MAX_SPAN_FILE_ROWS it is refused (413 with the
 * count so far), so a few bytes of labels × ranges never become millions of rows.
 */
export function parseLabelStudioSpans(input: string): ParsedSpanFile {
  let json: unknown;
  try {
    json = JSON.parse(input);
  } catch {
    return {
      rows: [],
      problems: [{ row: 0, where: "the file", message: "Not JSON (a Label Studio export is a JSON array of tasks)." }],
    };
  }
  const tasks = Array.isArray(json) ? json : [json];
  const rows: SpanFileRow[] = [];
  const problems: SpanFileProblem[] = [];
  let counter = 0;
  let spanCount = 0;
  tasks.forEach((rawTask, t) => {
    const task = taskSchema.safeParse(rawTask);
    if (!task.success) {
      problems.push({
        row: ++counter,
        where: `task ${t + 1}`,
        message: "Not a Label Studio task ({data, annotations}).",
      });
      return;
    }
    const video = taskVideo(task.data.data);
    task.data.annotations.forEach((annotation, a) => {
      if (annotation.was_cancelled) return;
      annotation.result.forEach((raw, r) => {
        const where = `task ${t + 1}, annotation ${a + 1}, result ${r + 1}`;
        const row = ++counter;
        const result = readResult(raw);
        if (result === null) return;
        spanCount += spanCountOf(result);
        if (spanCount > MAX_SPAN_FILE_ROWS) throw tooManySpansError(spanCount, { atLeast: true });
        const base = { where, video: video?.video ?? "", annotator: annotatorOf(annotation) };
        const spans = resultSpans(result, video?.videoId ? { ...base, videoId: video.videoId } : base, row);
        for (const span of spans) {
          if ("problem" in span) problems.push({ row, where, message: span.problem });
          else if (!video) problems.push({ row, where, message: "The task's data names no video." });
          else rows.push(span.row);
        }
      });
    });
  });
  return { rows, problems };
}

/** How a video's spans go out: its frame count and duration for `videorectangle` values. */
export interface LabelStudioVideo {
  videoId: string;
  url: string;
  path: string;
  frameCount: number;
  durationS: number;
  /** Each frame's start time, for a keyframe's `time`. */
  timesS: readonly number[];
}

function keyframesOut(span: ExportSpan, times: readonly number[]) {
  const pct = (v: number) => v * 100;
  const out = span.boxes.map((b) => ({
    frame: b.frame + 1,
    x: pct(b.x),
    y: pct(b.y),
    width: pct(b.w),
    height: pct(b.h),
    rotation: 0,
    enabled: b.enabled,
    time: times[b.frame] ?? 0,
  }));
  const first = span.boxes[0]!;
  // Label Studio's box starts at its first keyframe: a span whose first box comes later opens with that box, shown
  // on the span's first frame only (enabled: false), so the span keeps its start.
  if (first.frame > span.startFrame)
    out.unshift({ ...out[0]!, frame: span.startFrame + 1, enabled: false, time: times[span.startFrame] ?? 0 });
  const last = out[out.length - 1]!;
  // The box ends with the span: a keyframe that is not enabled on its last frame (the last box held there).
  if (last.frame - 1 < span.endFrame)
    out.push({ ...last, frame: span.endFrame + 1, enabled: false, time: times[span.endFrame] ?? 0 });
  else last.enabled = false;
  return out;
}

function resultOut(span: ExportSpan, index: number, video: LabelStudioVideo) {
  const meta = span.note ? { meta: { text: [span.note] } } : {};
  const id = `fj${index.toString(36)}`;
  if (span.boxes.length === 0)
    return {
      id,
      type: "timelinelabels",
      from_name: "timelinelabels",
      to_name: "video",
      origin: "manual",
      value: { ranges: [{ start: span.startFrame + 1, end: span.endFrame + 1 }], timelinelabels: [span.label] },
      ...meta,
    };
  return {
    id,
    type: "videorectangle",
    from_name: "box",
    to_name: "video",
    origin: "manual",
    value: {
      framesCount: video.frameCount,
      duration: video.durationS,
      sequence: keyframesOut(span, video.timesS),
      labels: [span.label],
    },
    ...meta,
  };
}

/**
 * One Label Studio task per video: each annotator's spans as one annotation (`framejury_annotator` names them; Label
 * Studio ignores the field), a judge run's as a prediction (`model_version` its author id).
 */
export function labelStudioSpanTasks(videos: readonly LabelStudioVideo[], spans: readonly ExportSpan[]) {
  const byVideo = new Map<string, Map<string, ExportSpan[]>>();
  for (const span of spans) {
    const authors = byVideo.get(span.videoId) ?? new Map<string, ExportSpan[]>();
    const key = `${span.authorKind === "judge" ? "p" : "a"}\u0000${span.annotator}`;
    authors.set(key, [...(authors.get(key) ?? []), span]);
    byVideo.set(span.videoId, authors);
  }
  let index = 0;
  return videos.map((video) => {
    const authors = [...(byVideo.get(video.videoId) ?? new Map<string, ExportSpan[]>()).entries()];
    const results = (list: ExportSpan[]) => list.map((s) => resultOut(s, index++, video));
    return {
      data: { video: video.url, framejury_video_id: video.videoId, path: video.path },
      annotations: authors
        .filter(([key]) => key.startsWith("a"))
        .map(([, list]) => ({
          framejury_annotator: list[0]!.annotator,
          ground_truth: list[0]!.authorKind === "gold",
          result: results(list),
        })),
      predictions: authors
        .filter(([key]) => key.startsWith("p"))
        .map(([, list]) => ({ model_version: list[0]!.annotator, result: results(list) })),
    };
  });
}

/**
 * The URL Label Studio serves a project video from: its local-files storage (`/data/local-files/?d=<path>`, with
 * LABEL_STUDIO_LOCAL_FILES_SERVING_ENABLED=true and LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT the folder the clips'
 * paths start in; see docs/guide/spans.md). The app's own file URL needs a session Label Studio does not have.
 */
export function labelStudioLocalFileUrl(path: string): string {
  return `/data/local-files/?d=${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** A label of the config: its id (what results carry) and the name shown on its button. */
export interface LabelStudioLabel {
  id: string;
  name: string;
}

/**
 * Label Studio's labelling config for the spans' labels, in the order given: a timeline and boxes on one video.
 * Each label's value is its id, so results round-trip; its button shows the id and name (`html`, escaped as HTML).
 */
export function labelStudioSpanConfig(labels: readonly LabelStudioLabel[]): string {
  const escape = (t: string) =>
    t.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const each = labels
    .map((l) => {
      const shown = l.name && l.name !== l.id ? `${l.id} · ${l.name}` : l.id;
      const html = shown === l.id ? "" : ` html="${escape(escape(shown))}" hint="${escape(l.name)}"`;
      return `    <Label value="${escape(l.id)}"${html}/>`;
    })
    .join("\n");
  return [
    "<View>",
    '  <Video name="video" value="$video" timelineHeight="120"/>',
    '  <TimelineLabels name="timelinelabels" toName="video">',
    each,
    "  </TimelineLabels>",
    '  <VideoRectangle name="box" toName="video"/>',
    '  <Labels name="videoLabels" toName="video">',
    each,
    "  </Labels>",
    "</View>",
    "",
  ].join("\n");
}
