/**
 * The `video-frames` input mode: a step's own frames (two or more), in time order, as one `video/jpeg` video part
 * with their timing (../video-parts.ts), its template's example frames as images after it. A step of one frame, one
 * that asks for stills, a batch line, or more frames than the endpoint's probe saw one video part carry go as images.
 */
import { videoFrameOf, sawOfFrames } from "../calls/call-record";
import type { EndpointCapabilities } from "../endpoints/endpoint-capabilities";
import { framesVideo } from "../media/video-parts";
import { imagesPlan, picturesCost } from "./images";
import { mayGoAsVideo, type InputModeModule, type MediaPlan, type SplitRequest } from "./media-plan";

/** The largest video the probe sends (../endpoint-probe-video.ts PROBE_VIDEO_FRAME_COUNTS): taking it is no limit. */
const MOST_VIDEO_FRAMES_PROBED = 64;

/**
 * The most frames one video part may carry for this endpoint: the most its probe saw answered in `video-frames`,
 * or null when it took every count tried, was never probed, or not settled (the endpoint's own error then says).
 */
function videoFrameLimitOf(capabilities: EndpointCapabilities | null | undefined): number | null {
  const finding = capabilities?.inputModes?.["video-frames"];
  if (!finding || finding.accepted !== "yes" || finding.maxFrames === null) return null;
  return finding.maxFrames >= MOST_VIDEO_FRAMES_PROBED ? null : finding.maxFrames;
}

/** The step's own frames as one video part, its examples as images after it. */
export function videoFramesPlan(request: Pick<SplitRequest, "own" | "examples">): MediaPlan {
  return {
    mode: "video-frames",
    videoFrames: [...request.own],
    clip: null,
    imageFrames: request.examples,
    ownImages: 0,
    grid: false,
  };
}

export const videoFramesMode: InputModeModule = {
  mode: "video-frames",
  plan(request) {
    const limit = videoFrameLimitOf(request.capabilities);
    const fits = limit === null || request.own.length <= limit;
    return mayGoAsVideo(request) && fits ? videoFramesPlan(request) : imagesPlan(request);
  },
  frameLimit: videoFrameLimitOf,
  async videoPart(plan, read) {
    if (!plan.videoFrames.length) return null;
    const urls = await Promise.all(plan.videoFrames.map(read.frameUrl));
    // Each picture named as the call record names it: the frame on screen at its time, by the video's frame times when known.
    const clock = { fps: read.source.fps, frameTimesS: read.source.frameTimesS };
    return framesVideo(
      plan.videoFrames.map((f, i) => ({
        timestampS: f.timestampS,
        url: urls[i]!,
        videoFrame: read.recordedVideoFrames
          ? (read.recordedVideoFrames[i] ?? null)
          : videoFrameOf(f.timestampS, clock),
      })),
      read.source,
    );
  },
  saw: (plan, context) =>
    sawOfFrames(
      "video-frames",
      [...plan.videoFrames, ...plan.imageFrames],
      { fps: context.fps, frameTimesS: context.frameTimesS },
      plan.videoFrames.length,
    ),
  cost(plan, pricing) {
    const pictures = picturesCost(plan, pricing);
    const tokens = plan.videoFrames.reduce(
      (total, frame) => total + pricing.rule.videoFrame(pricing.frameSize(frame)),
      0,
    );
    return { ...pictures, videoFrames: plan.videoFrames.length, tokens: pictures.tokens + tokens };
  },
  note(plan) {
    if (plan.videoFrames.length === 0) return null;
    const first = plan.videoFrames[0]!.timestampS;
    const last = plan.videoFrames[plan.videoFrames.length - 1]!.timestampS;
    return `(The ${plan.videoFrames.length} frames are sent as one video, in order, from ${first.toFixed(2)} s to ${last.toFixed(2)} s: where this prompt speaks of images or frames, it means the frames of this video.)`;
  },
  cachePart: (plan, source) => (plan.videoFrames.length ? ["frames", source.fps, source.frameCount] : null),
};
