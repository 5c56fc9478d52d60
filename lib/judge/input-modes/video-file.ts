/**
 * The `video-file` input mode: a step over the whole video (scope `video` or `item`: VBench-2.0, captions, QA) sends
 * the clip, asking the server to sample as many frames as the step would have sent; a step over part of the video
 * (a cluster, a key frame's neighbours) sends its frames as in `video-frames`, since the clip would show the model
 * moments the step is not about. The clip goes as a data URL, or by a short-lived signed URL of the app when the
 * endpoint takes clips by URL only or the data URL would not fit the largest body its probe saw accepted.
 */
import { sawOfClip } from "../calls/call-record";
import type { ChatVideo } from "../calls/llm-client";
import { clipDataUrlBytes, clipDataVideo, clipUrlVideo } from "../media/video-parts";
import type { ClipRef, VideoContext } from "../../task-modules/pipeline-types";
import { imagesPlan, picturesCost } from "./images";
import { videoFramesMode, videoFramesPlan } from "./video-frames";
import { mayGoAsVideo, type InputModeModule, type MediaPlan } from "./media-plan";

/** The clip's length: its own duration, else its frame count at its frame rate, else unknown (0). */
function clipSecondsOf(ref: ClipRef, context: Pick<VideoContext, "fps" | "frameCount">): number {
  if (ref.durationS !== null) return ref.durationS;
  return context.fps && context.frameCount ? context.frameCount / context.fps : 0;
}

/** The largest body the endpoint's probe saw accepted (`capabilities.maxBodyBytes`), when it recorded one. */
function maxBodyBytesOf(capabilities: { maxBodyBytes?: number | null } | null | undefined): number | null {
  const value = capabilities?.maxBodyBytes;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * Whether the endpoint takes clips by URL only: its probe's signed-URL request was answered and no data URL was
 * (../endpoint-probe-video.ts).
 */
export function clipByUrlOf(capabilities: { inputModes?: unknown } | null | undefined): boolean {
  const modes = capabilities?.inputModes as
    { "video-file"?: { byUrl?: string | null; maxBodyBytes?: number | null } } | null | undefined;
  const file = modes?.["video-file"];
  return file?.byUrl === "yes" && (file.maxBodyBytes ?? null) === null;
}

/** The default largest body a clip goes in as a data URL when the endpoint's probe found no limit (vLLM's own is larger). */
export const DEFAULT_MAX_CLIP_BODY_BYTES = 20 * 1024 * 1024;

type ClipCapabilities = { maxBodyBytes?: number | null; inputModes?: unknown } | null | undefined;

/**
 * Whether these clips go in one request as data URLs, by the endpoint's probe: it takes clips that way (not by URL
 * only, clipByUrlOf), and their data URLs together fit the largest body it saw accepted (maxBodyBytesOf; the default
 * without one).
 */
export function clipsFitAsData(clips: readonly ClipRef[], capabilities: ClipCapabilities): boolean {
  if (clipByUrlOf(capabilities)) return false;
  const limit = maxBodyBytesOf(capabilities) ?? DEFAULT_MAX_CLIP_BODY_BYTES;
  return clips.reduce((total, clip) => total + clipDataUrlBytes(clip.sizeBytes, clip.contentType), 0) <= limit;
}

/** Whether the clip goes by URL: it does not fit as a data URL (clipsFitAsData). */
export function clipGoesByUrl(clip: ClipRef, capabilities: ClipCapabilities): boolean {
  return !clipsFitAsData([clip], capabilities);
}

export const videoFileMode: InputModeModule = {
  mode: "video-file",
  plan(request): MediaPlan {
    if (!mayGoAsVideo(request)) return imagesPlan(request);
    if (!request.clip || (request.scope !== "video" && request.scope !== "item")) return videoFramesPlan(request);
    return {
      mode: "video-file",
      videoFrames: [],
      clip: { ref: request.clip, sampling: { numFrames: request.own.length }, chosenFrames: [...request.own] },
      imageFrames: request.examples,
      ownImages: 0,
      grid: false,
    };
  },
  // The server samples the clip: no frame count of the step's is its limit.
  frameLimit: () => null,
  async videoPart(plan, read) {
    if (!plan.clip) return videoFramesMode.videoPart(plan, read);
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
    return clipDataVideo({ base64: await read.clipBase64(ref), contentType: ref.contentType }, sampling);
  },
  saw(plan, context) {
    if (!plan.clip) return videoFramesMode.saw(plan, context);
    const { ref, sampling } = plan.clip;
    return sawOfClip({
      sha256: ref.sha256,
      durationS: clipSecondsOf(ref, context),
      sampling,
      fps: context.fps,
      frameCount: context.frameCount,
    });
  },
  cost(plan, pricing) {
    if (!plan.clip) return videoFramesMode.cost(plan, pricing);
    const pictures = picturesCost(plan, pricing);
    const seconds = clipSecondsOf(plan.clip.ref, pricing.context);
    const sampled = plan.clip.chosenFrames.reduce(
      (total, frame) => total + pricing.rule.clipFrame(pricing.frameSize(frame)),
      seconds * pricing.rule.videoSecond,
    );
    return {
      ...pictures,
      videoFrames: plan.clip.chosenFrames.length,
      videoSeconds: seconds,
      tokens: pictures.tokens + sampled,
    };
  },
  note: (plan) =>
    plan.clip
      ? "(The video is sent as one video clip, played from its first frame to its last: where this prompt speaks of images or frames, it means the frames of this video.)"
      : videoFramesMode.note(plan),
  cachePart: (plan, source) =>
    plan.clip ? ["clip", plan.clip.ref.sha256, plan.clip.sampling] : videoFramesMode.cachePart(plan, source),
};
