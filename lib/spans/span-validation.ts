/**
 * What a span must be to be saved: inside its video, end not before start, a label of its task, boxes inside the frame
 * on frames of the span. Shared by the API, the timeline and every importer, so each refuses the same spans with the
 * same words. Plain data and pure functions: the browser imports it too.
 */
import { z } from "zod";
import { type FrameTimes, framesOfSeconds, spanSeconds } from "../frames/frame-times";
import { type SpanLabel, spanItemProblem } from "./span-labels";
import type { BoxKeyframe, SpanFields, SpanRecord } from "./span-types";

/** A span may carry at most this many box keyframes (a keyframe every frame of a 10-minute clip at 60 fps is more). */
export const MAX_BOX_KEYFRAMES = 5000;
export const MAX_SPAN_NOTE = 4000;

const fraction = z.number().finite();

export const boxKeyframeSchema = z.object({
  frame: z.number().int().min(0),
  x: fraction,
  y: fraction,
  w: fraction,
  h: fraction,
  enabled: z.boolean().default(true),
});

/** A span as a client sends it: frames, or seconds that are converted with the video's frame times. */
export const spanInputSchema = z
  .object({
    task: z.string().min(1).max(200),
    label: z.string().min(1).max(200),
    itemId: z.string().max(200).default(""),
    startFrame: z.number().int().min(0).optional(),
    endFrame: z.number().int().min(0).optional(),
    startS: z.number().finite().min(0).optional(),
    endS: z.number().finite().min(0).optional(),
    boxes: z.array(boxKeyframeSchema).max(MAX_BOX_KEYFRAMES).default([]),
    note: z.string().max(MAX_SPAN_NOTE).default(""),
  })
  .strict()
  .refine((s) => (s.startFrame !== undefined) === (s.endFrame !== undefined), "Give both startFrame and endFrame.")
  .refine((s) => (s.startS !== undefined) === (s.endS !== undefined), "Give both startS and endS.")
  .refine(
    (s) => s.startFrame !== undefined || s.startS !== undefined,
    "Give the span's frames (startFrame, endFrame) or its seconds (startS, endS).",
  );
export type SpanInput = z.infer<typeof spanInputSchema>;

export const spanUpdateSchema = z
  .object({
    label: z.string().min(1).max(200).optional(),
    startFrame: z.number().int().min(0).optional(),
    endFrame: z.number().int().min(0).optional(),
    boxes: z.array(boxKeyframeSchema).max(MAX_BOX_KEYFRAMES).optional(),
    note: z.string().max(MAX_SPAN_NOTE).optional(),
    expectedVersion: z.number().int().min(1),
  })
  .strict();
export type SpanUpdate = z.infer<typeof spanUpdateSchema>;

export interface SpanContext {
  times: FrameTimes;
  labels: readonly SpanLabel[];
}

/** The span's frames: as given, or the frames its seconds cover (null when seconds fall outside the video). */
export function framesOfInput(
  input: Pick<SpanInput, "startFrame" | "endFrame" | "startS" | "endS">,
  times: FrameTimes,
): { startFrame: number; endFrame: number } | string {
  if (input.startFrame !== undefined && input.endFrame !== undefined)
    return { startFrame: input.startFrame, endFrame: input.endFrame };
  const startS = input.startS!;
  const endS = input.endS!;
  if (endS < startS) return `The span ends (${endS} s) before it starts (${startS} s).`;
  if (startS >= times.endS + 1e-6 || endS > times.endS + 1e-3)
    return `The span (${startS}–${endS} s) is outside the video (0–${round(times.endS)} s).`;
  return framesOfSeconds(times, startS, endS);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function boxProblem(box: BoxKeyframe, span: Pick<SpanFields, "startFrame" | "endFrame">): string | null {
  if (box.frame < span.startFrame || box.frame > span.endFrame)
    return `The box on frame ${box.frame} is outside the span (frames ${span.startFrame}–${span.endFrame}).`;
  const inside = (v: number) => v >= -1e-9 && v <= 1 + 1e-9;
  if (!(box.w > 0 && box.h > 0)) return `The box on frame ${box.frame} has no area.`;
  if (!inside(box.x) || !inside(box.y) || !inside(box.x + box.w) || !inside(box.y + box.h))
    return `The box on frame ${box.frame} is outside the frame (x, y, w, h are fractions of it, 0–1).`;
  return null;
}

/** Why the span cannot be saved, or null. */
export function spanProblem(span: SpanFields, context: SpanContext): string | null {
  const frameCount = context.times.timesS.length;
  if (span.endFrame < span.startFrame)
    return `The span ends (frame ${span.endFrame}) before it starts (frame ${span.startFrame}).`;
  if (span.endFrame >= frameCount)
    return `The span (frames ${span.startFrame}–${span.endFrame}) is outside the video (frames 0–${frameCount - 1}).`;
  const label = context.labels.find((l) => l.id === span.label);
  if (!label)
    return `"${span.label}" is not a label of ${span.task} (${context.labels.map((l) => l.id).join(", ") || "it has none"}).`;
  const itemProblem = spanItemProblem(span, label);
  if (itemProblem) return itemProblem;
  const seen = new Set<number>();
  for (const box of span.boxes) {
    const problem = boxProblem(box, span);
    if (problem) return problem;
    if (seen.has(box.frame)) return `Frame ${box.frame} has two boxes; a span has one box per frame.`;
    seen.add(box.frame);
  }
  return null;
}

/** The span's seconds, from its frames. */
export function secondsOf(span: Pick<SpanFields, "startFrame" | "endFrame">, times: FrameTimes) {
  return spanSeconds(times, span.startFrame, span.endFrame);
}

/**
 * Boxes already checked, in frame order (keyframes are kept sorted so interpolation reads them in order). Stored
 * boxes read back for the agreement report go through span-groups.ts's validStoredBoxes, which also drops invalid ones.
 */
export function sortedBoxes(boxes: readonly BoxKeyframe[]): BoxKeyframe[] {
  return [...boxes].sort((a, b) => a.frame - b.frame);
}

/** A span as the span routes answer it (span-types.ts SpanRecord, which it is checked to be). */
export const spanRecordSchema = z.object({
  id: z.string(),
  videoId: z.string(),
  task: z.string(),
  label: z.string(),
  itemId: z.string().describe("The judged item it is about ('' for the video itself)."),
  startFrame: z.number().int(),
  endFrame: z.number().int().describe("Inclusive."),
  startS: z.number(),
  endS: z.number(),
  boxes: z.array(boxKeyframeSchema),
  note: z.string(),
  authorKind: z.enum(["reviewer", "label_set", "judge", "gold"]),
  authorId: z.string().describe("A user id, `labelset:<id>[:<column>]`, `run:<id>` or `gold`."),
  authorName: z.string().optional().describe("A reviewer's name, only to callers who may see who marked what."),
  runId: z.string().nullable(),
  labelSetId: z.string().nullable(),
  queueId: z.string().nullable(),
  version: z.number().int(),
  updatedAt: z.string().describe("ISO 8601."),
}) satisfies z.ZodType<SpanRecord>;

/** GET /videos/{videoId}/spans: the spans the caller may see. */
export const spanListAnswerSchema = z.object({
  spans: z.array(spanRecordSchema),
  blind: z.boolean().describe("The caller reviews the video blind: only their own spans came back."),
  frameSetId: z
    .string()
    .nullable()
    .optional()
    .describe("Asked beside a run: the frame set that run judged the video with (null: it did not judge it)."),
});
export type SpanListAnswer = z.infer<typeof spanListAnswerSchema>;

/** GET /videos/{videoId}/frame-times (200): span-types' FrameTimes, which it is checked to be. */
export const frameTimesAnswerSchema = z.object({
  timesS: z
    .array(z.number())
    .readonly()
    .describe("Each decoded frame's presentation time in seconds, the first 0, ascending."),
  endS: z.number().describe("The last frame's time plus its duration."),
  variable: z.boolean().describe("The gaps between frames differ by more than a millisecond."),
}) satisfies z.ZodType<FrameTimes>;

/** GET /videos/{videoId}/frame-times (202): a worker has yet to read them. */
export const frameTimesPendingAnswerSchema = z.object({ pending: z.literal(true), message: z.string() });
export type FrameTimesPendingAnswer = z.infer<typeof frameTimesPendingAnswerSchema>;

/** GET /spans/{spanId}: the span and its history, oldest first. */
export const spanWithHistoryAnswerSchema = z.object({
  span: spanRecordSchema,
  history: z.array(
    z.looseObject({
      version: z.number().int(),
      changedBy: z.string(),
      before: z.unknown().describe("The span's fields before the change; null for its first version."),
      after: z.unknown().describe("What the change set."),
      at: z.string().describe("ISO 8601."),
    }),
  ),
});
