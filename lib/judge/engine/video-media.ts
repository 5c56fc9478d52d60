/**
 * How a step's frames go to the judge in the run's input mode (lib/judge/input-modes.ts):
 * - `images`: one image part per frame;
 * - `video-frames`: the step's own frames (two or more), in time order, as one `video/jpeg` video part with their
 *   timing (lib/judge/video-parts.ts); a step of one frame (the hallucination task's static step) sends its image;
 * - `video-file`: a step over the whole video (scope `video` or `item`: VBench-2.0, captions, QA) sends the clip,
 *   asking the server to sample as many frames as the step would have sent; a step over part of the video (a
 *   cluster, a key frame's neighbours) sends its frames as in `video-frames`, since the clip would show the model
 *   moments the step is not about.
 * A step may keep its frames as images in any mode (`StepInput.sendAs: "images"`: a rubric criterion that asks for
 * stills). A template's few-shot example frames (from other videos) always follow as images. Batch-mode requests
 * (OpenAI's Batch API) always carry images.
 */
import type { ChatVideo } from "../llm-client";
import type { InputMode } from "../input-modes";
import { imageLimitOf, type EndpointCapabilities } from "../endpoint-capabilities";
import { videoFrameOf, type ClipSampling } from "../call-record";
import { clipDataUrlBytes, clipDataVideo, clipUrlVideo, framesVideo } from "../video-parts";
import type { ClipRef, FrameRef, StepInput, StepScope } from "./pipeline";

/** What one request shows: the mode it uses, the frames in its video part or the clip, and the frames sent as images. */
export interface MediaPlan {
  /** The mode of this request: `images` when its frames go as images even in a video run. */
  mode: InputMode;
  /** The frames of the video part (`video-frames` form), in order; none otherwise. */
  videoFrames: FrameRef[];
  /** The clip (`video-file` form) and the sampling asked; null otherwise. */
  clip: { ref: ClipRef; sampling: ClipSampling } | null;
  /** The frames sent as image parts, after any video part: the step's own first, then its template's examples. */
  imageFrames: FrameRef[];
  /** How many of `imageFrames` are the step's own (the rest are few-shot examples of other videos). */
  ownImages: number;
}

/** The run's mode applied to one step's request. */
export function planMedia(options: {
  runMode: InputMode;
  scope: StepScope;
  input: Pick<StepInput, "frames" | "sendAs" | "ownFrames">;
  /** The template's few-shot example frames, which follow as images. */
  exampleFrames: FrameRef[];
  clip: ClipRef | null;
  batch: boolean;
  /** The most frames the endpoint took in one video part (videoFrameLimitOf); more go as images. Absent: no limit. */
  videoFrameLimit?: number | null;
}): MediaPlan {
  const { runMode, scope, input, clip, batch } = options;
  const ownCount = Math.min(input.ownFrames ?? input.frames.length, input.frames.length);
  const own = input.frames.slice(0, ownCount);
  const exampleFrames = [...input.frames.slice(ownCount), ...options.exampleFrames];
  const fits = runMode !== "video-frames" || options.videoFrameLimit == null || own.length <= options.videoFrameLimit;
  const asVideo = runMode !== "images" && !batch && input.sendAs !== "images" && own.length >= 2 && fits;
  if (!asVideo)
    return {
      mode: "images",
      videoFrames: [],
      clip: null,
      imageFrames: [...own, ...exampleFrames],
      ownImages: own.length,
    };
  const rest = { imageFrames: exampleFrames, ownImages: 0 };
  if (runMode === "video-file" && clip && (scope === "video" || scope === "item"))
    return { mode: "video-file", videoFrames: [], clip: { ref: clip, sampling: { numFrames: own.length } }, ...rest };
  return { mode: "video-frames", videoFrames: [...own], clip: null, ...rest };
}

/**
 * A line the prompt gets when the request shows the video as video: the task prompts (the user's, sent as written)
 * speak of "images" and "frames", which in a video part are the video's frames, and a model told so reads them as
 * one clip. None when the request shows images only.
 */
export function videoPartNote(plan: Pick<MediaPlan, "videoFrames" | "clip">): string | null {
  if (plan.clip)
    return "(The video is sent as one video clip, played from its first frame to its last: where this prompt speaks of images or frames, it means the frames of this video.)";
  if (plan.videoFrames.length === 0) return null;
  const first = plan.videoFrames[0]!.timestampS;
  const last = plan.videoFrames[plan.videoFrames.length - 1]!.timestampS;
  return `(The ${plan.videoFrames.length} frames are sent as one video, in order, from ${first.toFixed(2)} s to ${last.toFixed(2)} s: where this prompt speaks of images or frames, it means the frames of this video.)`;
}

/**
 * The most frames one video part may carry for this endpoint: the most its probe saw answered in `video-frames`,
 * or null when it took every count tried, was never probed, or not settled (the endpoint's own error then says).
 */
export function videoFrameLimitOf(capabilities: EndpointCapabilities | null | undefined): number | null {
  const finding = capabilities?.inputModes?.["video-frames"];
  if (!finding || finding.accepted !== "yes" || finding.maxFrames === null) return null;
  return finding.maxFrames >= MOST_VIDEO_FRAMES_PROBED ? null : finding.maxFrames;
}

/** The largest video the probe sends (lib/judge/endpoint-probe-video.ts PROBE_VIDEO_FRAME_COUNTS): taking it is no limit. */
const MOST_VIDEO_FRAMES_PROBED = 64;

/**
 * The most frames a step of this run should choose (`VideoContext.imageLimit`, which a task fits its frames to:
 * VBench-2.0 samples fewer than 64 under it): the endpoint's image limit in `images`; its video part limit in
 * `video-frames` (a server started for video may take one image but 64 frames as a video); none in `video-file`,
 * whose clips the server samples.
 */
export function frameLimitOf(mode: InputMode, capabilities: EndpointCapabilities | null | undefined): number | null {
  if (mode === "video-file") return null;
  if (mode === "video-frames") return videoFrameLimitOf(capabilities);
  return imageLimitOf(capabilities ?? null);
}

/** The video part's identity in the response-cache key: what it shows and the timing or sampling it is sent with. */
export function videoCachePart(plan: MediaPlan, source: { fps: number | null; frameCount: number | null }): unknown {
  if (plan.clip) return ["clip", plan.clip.ref.sha256, plan.clip.sampling];
  if (plan.videoFrames.length) return ["frames", source.fps, source.frameCount];
  return null;
}

/** The largest body the endpoint's probe saw accepted (`capabilities.maxBodyBytes`), when it recorded one. */
function maxBodyBytesOf(capabilities: { maxBodyBytes?: number | null } | null | undefined): number | null {
  const value = capabilities?.maxBodyBytes;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * Whether the endpoint takes clips by URL only: its probe's signed-URL request was answered and no data URL was
 * (lib/judge/endpoint-probe-video.ts).
 */
export function clipByUrlOf(capabilities: { inputModes?: unknown } | null | undefined): boolean {
  const modes = capabilities?.inputModes as
    { "video-file"?: { byUrl?: string | null; maxBodyBytes?: number | null } } | null | undefined;
  const file = modes?.["video-file"];
  return file?.byUrl === "yes" && (file.maxBodyBytes ?? null) === null;
}

/** The default largest body a clip goes in as a data URL when the endpoint's probe found no limit (vLLM's own is larger). */
export const DEFAULT_MAX_CLIP_BODY_BYTES = 20 * 1024 * 1024;

/**
 * Whether the clip goes by URL, by the endpoint's probe: it takes clips by URL only (clipByUrlOf), or the clip's data
 * URL would not fit the largest body it saw accepted (maxBodyBytesOf; the default without one).
 */
export function clipGoesByUrl(
  clip: ClipRef,
  capabilities: { maxBodyBytes?: number | null; inputModes?: unknown } | null | undefined,
): boolean {
  if (clipByUrlOf(capabilities)) return true;
  const limit = maxBodyBytesOf(capabilities) ?? DEFAULT_MAX_CLIP_BODY_BYTES;
  return clipDataUrlBytes(clip.sizeBytes, clip.contentType) > limit;
}

/** The video part of a planned request; frames' data URLs and the clip are read only when a call goes out. */
export async function videoOfPlan(
  plan: MediaPlan,
  read: {
    frameUrl: (frame: FrameRef) => Promise<string>;
    /** The clip's bytes in base64. */
    clipBase64: (clip: ClipRef) => Promise<string>;
    /** The clip's short-lived URL, when it goes by URL; null: it goes as a data URL. */
    clipUrl: (clip: ClipRef) => string | null;
    source: { fps: number | null; frameCount: number | null; frameTimesS?: readonly number[] | null };
  },
): Promise<ChatVideo | null> {
  if (plan.clip) {
    const { ref, sampling } = plan.clip;
    const byUrl = (url: string): ChatVideo => ({
      ...clipUrlVideo(url, sampling),
      renew: () => {
        const next = read.clipUrl(ref);
        return next ? byUrl(next) : byUrl(url);
      },
    });
    const url = read.clipUrl(ref);
    if (url) return byUrl(url);
    const base64 = await read.clipBase64(plan.clip.ref);
    return clipDataVideo({ base64, contentType: plan.clip.ref.contentType }, plan.clip.sampling);
  }
  if (!plan.videoFrames.length) return null;
  const urls = await Promise.all(plan.videoFrames.map(read.frameUrl));
  // Each picture named as the call record names it: the frame on screen at its time, by the video's frame times when known.
  const clock = { fps: read.source.fps, frameTimesS: read.source.frameTimesS };
  return framesVideo(
    plan.videoFrames.map((f, i) => ({
      timestampS: f.timestampS,
      url: urls[i]!,
      videoFrame: videoFrameOf(f.timestampS, clock),
    })),
    read.source,
  );
}
