/**
 * What one judge call showed the model, as its call row keeps it (`LlmCall.saw`, `LlmCall.bytesSent`): the input
 * mode, the frames in the order they went (each with its index in its frame set, its index in the video when the
 * video's frame rate is known, its id and its time), or the clip with its hash, duration and the sampling asked.
 * Request building (lib/judge/engine/build-request.ts) describes what it put in a request with these helpers; the
 * engine stores that description with every call row of the request, a cached answer's included (it records what
 * the cached call was asked with), and the inspector and replay read it back through `storedSaw`.
 */
import { z } from "zod";
import { inputModeSchema, type InputMode } from "../input-modes/index";
import { chatCompletionPieces, type ChatRequest } from "./llm-client";
import { videoFrameOfSample } from "../engine/judge-span-drafts";

export const sawFrameSchema = z.object({
  /** The frame's index in its frame set. */
  index: z.number().int().nonnegative(),
  /**
   * The frame's index in the decoded video: the frame on screen at its time, by the video's frame times when they are
   * known (as the timeline names frames), else by the video's average frame rate; null when neither is known. The
   * `video-frames` part names the same index in `frames_indices`.
   */
  videoFrame: z.number().int().nonnegative().nullable().optional(),
  frameId: z.string().min(1),
  timestampS: z.number().nonnegative(),
});
export type SawFrame = z.infer<typeof sawFrameSchema>;

/** The sampling a `video-file` call asked the endpoint for: a number of frames, or a rate. */
export const clipSamplingSchema = z.union([
  z.object({ numFrames: z.number().int().positive() }).strict(),
  z.object({ fps: z.number().positive() }).strict(),
]);
export type ClipSampling = z.infer<typeof clipSamplingSchema>;

export const sawClipSchema = z.object({
  /** The clip's sha256 (the video's, or that of the clip cut from it that was sent). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  durationS: z.number().nonnegative(),
  sampling: clipSamplingSchema,
  /** The video's average frame rate and decoded frame count when known: which frames a server's loader takes. */
  fps: z.number().positive().nullable().optional(),
  frameCount: z.number().int().positive().nullable().optional(),
});
export type SawClip = z.infer<typeof sawClipSchema>;

export const callSawSchema = z.object({
  mode: inputModeSchema,
  /** The frames in the order the request carried them; for a `video-file` call, none (the clip is in `clip`). */
  frames: z.array(sawFrameSchema),
  clip: sawClipSchema.optional(),
  /** A call that sent several clips (a pairwise question's Video A and Video B), in the order sent; `clip` is the first. */
  clips: z.array(sawClipSchema).optional(),
});
export type CallSaw = z.infer<typeof callSawSchema>;

/** A frame as the engine holds it (lib/task-modules/pipeline-types.ts FrameRef has these fields). */
export interface SeenFrame {
  id: string;
  index: number;
  timestampS: number;
}

/**
 * What names a time's frame in the judged video: its frame times (each decoded frame's time, video_frame_times) when
 * they are known, exact for a variable frame rate; else its average frame rate. A number is the rate alone.
 */
export type VideoClock = number | { fps: number | null; frameTimesS?: readonly number[] | null } | null | undefined;

/**
 * A time this close before a frame's start still shows that frame: sampled times summed or printed in floating point
 * land a hair early (the timeline's frame times allow the same, lib/frames/frame-times.ts).
 */
const FRAME_TIME_EPSILON_S = 1e-6;

/**
 * The index of the frame on screen at a time in the video (the frame a frame set's picture at that time shows), when
 * the video's frame times or frame rate are known: the last frame that starts at or before it.
 */
export function videoFrameOf(timestampS: number, clock: VideoClock): number | null {
  if (!Number.isFinite(timestampS) || timestampS < 0) return null;
  const { fps, frameTimesS } = typeof clock === "object" && clock !== null ? clock : { fps: clock, frameTimesS: null };
  if (frameTimesS?.length) return videoFrameOfSample({ timesS: frameTimesS, endS: 0, variable: true }, timestampS);
  if (!fps || !Number.isFinite(fps) || fps <= 0) return null;
  return Math.floor((timestampS + FRAME_TIME_EPSILON_S) * fps);
}

/**
 * What a call that carries frames (as pictures, or as one video part) showed, in the order the request put them.
 * `clock` is the judged video's frame times or rate; frames past `ofVideo` (a template's few-shot examples, from other
 * videos) get no video frame index from it.
 */
export function sawOfFrames(
  mode: InputMode,
  frames: readonly SeenFrame[],
  clock: VideoClock = null,
  ofVideo = frames.length,
): CallSaw {
  return {
    mode,
    frames: frames.map((f, i) => ({
      index: f.index,
      videoFrame: i < ofVideo ? videoFrameOf(f.timestampS, clock) : null,
      frameId: f.id,
      timestampS: f.timestampS,
    })),
  };
}

/** What a `video-file` call showed: the clip, and the sampling it asked for. */
export function sawOfClip(clip: SawClip): CallSaw {
  return { mode: "video-file", frames: [], clip };
}

/**
 * The request body's size in bytes as the client sends it: the same pieces of JSON (lib/judge/calls/llm-client.ts
 * chatCompletionPieces), each image's part encoded once per image object, so measuring costs no second encoding.
 */
export function requestBodyBytes(request: ChatRequest): number {
  return chatCompletionPieces(request).reduce((total, piece) => total + piece.length, 0);
}

/** A stored `saw` as the inspector and replay read it; null for a call made before it was recorded, or a row that is not one. */
export function storedSaw(json: unknown): CallSaw | null {
  if (json === null || json === undefined) return null;
  const parsed = callSawSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/**
 * How a request's media went, beyond what it showed: what replaying the call from its record needs to send the same
 * body again (lib/judge/calls/call-replay.ts). Request building fills it in (`CallRecord.sent`); the call row keeps it in
 * its `request` with the prompt's shape (system role, turns, images first, logprobs asked).
 */
export const sentShapeSchema = z.object({
  /** The images' `detail` as sent (null: left out). */
  detail: z.enum(["low", "high", "auto"]).nullable(),
  /** The frames were scaled to this longest side before they went (StepInput.imageMaxSide); null: as stored. */
  imageMaxSide: z.number().int().positive().nullable(),
  /** The images went as one grid of them all (more frames than the endpoint takes per request). */
  grid: z.boolean(),
  /** How many of `saw.frames`, from the first, went in the video part (`video-frames`); the rest went as images. */
  videoFrames: z.number().int().nonnegative(),
});
export type SentShape = z.infer<typeof sentShapeSchema>;

/**
 * The request's shape beyond its text, as its call row keeps it (only what differs from a plain user message). The
 * response format is kept as its JSON text too: the row's JSONB reorders an object's keys, and a schema's property
 * order is the order a server's guided decoding writes the answer in, so a replay sends it as it went.
 */
export function promptShapeOf(
  request: Pick<ChatRequest, "system" | "turns" | "imagesFirst" | "topLogprobs" | "responseFormat">,
  sent: SentShape | undefined,
): Record<string, unknown> {
  return {
    ...(request.responseFormat ? { responseFormatJson: JSON.stringify(request.responseFormat) } : {}),
    ...(request.system ? { systemRole: true } : {}),
    ...(request.turns?.length ? { turns: request.turns } : {}),
    ...(request.imagesFirst ? { imagesFirst: true } : {}),
    ...(request.topLogprobs ? { topLogprobs: request.topLogprobs } : {}),
    ...(sent ? { sent } : {}),
  };
}

/** The most instants a clip's bar marks (a high rate over a long clip would draw thousands). */
export const MAX_MARKED_INSTANTS = 1000;

/**
 * The instants of a clip the endpoint was asked to sample, in seconds. With the video's frame rate and frame count
 * known, the frames vLLM's loaders take: `num_frames` (or duration × `fps`, rounded down) of the video's frames, at
 * `linspace(0, total - 1, count)` cast to integers, each at its index ÷ the rate. Without them, `numFrames` spread
 * evenly over the duration, or one every 1/`fps` seconds from the start. At most MAX_MARKED_INSTANTS, evenly thinned
 * beyond that.
 */
export function sampledInstants(clip: Pick<SawClip, "durationS" | "sampling" | "fps" | "frameCount">): number[] {
  const taken = loaderInstants(clip);
  if (taken) return thinned(taken.count, taken.at);
  const duration = Math.max(0, clip.durationS);
  const count =
    "numFrames" in clip.sampling ? clip.sampling.numFrames : Math.max(1, Math.ceil(duration * clip.sampling.fps));
  const step = "numFrames" in clip.sampling ? (count > 1 ? duration / (count - 1) : 0) : 1 / clip.sampling.fps;
  return thinned(count, (k) => Math.min(duration, k * step));
}

/**
 * The times of the frames vLLM's loaders take (vllm/multimodal/video.py, `sample_frames_from_video`: at most the
 * video's frames, at most duration × fps when a rate is asked, at least one; every frame when that is all of them,
 * else `np.linspace(0, total - 1, count, dtype=int)`), as their count and the time of the k-th; null when the video's
 * rate or frame count is not known.
 */
function loaderInstants(
  clip: Pick<SawClip, "sampling" | "fps" | "frameCount">,
): { count: number; at: (k: number) => number } | null {
  const { fps, frameCount: total } = clip;
  if (!fps || !total) return null;
  const asked = "numFrames" in clip.sampling ? clip.sampling.numFrames : Math.floor((total / fps) * clip.sampling.fps);
  const count = Math.max(1, Math.min(total, asked));
  const step = count > 1 ? (total - 1) / (count - 1) : 0;
  const index = (k: number) => (count === total ? k : k === count - 1 && count > 1 ? total - 1 : Math.trunc(k * step));
  return { count, at: (k) => index(k) / fps };
}

/** The k-th of `count` instants for k evenly thinned to MAX_MARKED_INSTANTS, rounded to the millisecond. */
function thinned(count: number, at: (k: number) => number): number[] {
  const shown = Math.min(count, MAX_MARKED_INSTANTS);
  return Array.from({ length: shown }, (_, i) => {
    const k = shown === count ? i : Math.round((i * (count - 1)) / Math.max(1, shown - 1));
    return Math.round(at(k) * 1000) / 1000;
  });
}
