/**
 * The video part of a judge request in the `video-frames` and `video-file` input modes, as vLLM reads it.
 *
 * Read from vLLM's source (github.com/vllm-project/vllm, main at 055e47c2, 2026):
 * - `vllm/frontend/processing/multimodal/media/video.py` (re-exported as `vllm/multimodal/media/video.py`),
 *   `VideoMediaIO.load_base64`: a `video_url` whose data URL has the media type `video/jpeg` is a list of base64
 *   JPEGs split on `,`, one per frame, in order. It keeps only the first `num_frames` of them (the loader's
 *   `num_frames`, 32 unless the server's `--media-io-kwargs` or the request says otherwise), so a request always
 *   names its own count. The frames' timing comes from the per-request `media_io_kwargs.video` (merged over the
 *   server's `--media-io-kwargs` by `VideoMediaIO.merge_kwargs`; naming `num_frames` or `fps` in a request drops the
 *   other's server default):
 *     `fps`              the SOURCE video's frame rate (default 1), from which a frame's time is index / fps;
 *     `frames_indices`   each sent frame's index in the source video (a list of integers, one per frame sent);
 *     `total_num_frames` the source's frame count (an integer ≥ the frames sent; default: the frames sent);
 *     `duration`         the source's length in seconds (default total_num_frames / fps).
 *   These become the HF `VideoMetadata` (`video_backend: "jpeg_sequence"`, `do_sample_frames: false`: the model's
 *   processor takes the frames as they are and reads their timestamps from it). vLLM PR #37301 (metadata for JPEG
 *   frames) and PR #40133 (frames_indices, total_num_frames and duration from the request) added them; an older vLLM
 *   takes the frames but places them one second apart, and one before #37301 fails Qwen3-VL with "VideoMetadata …
 *   missing total_num_frames".
 * - The same file, `load_bytes`, and `vllm/multimodal/video_decoders/opencv.py`: any other video (`video/mp4` data
 *   URL, or an http(s) URL the server fetches within VLLM_VIDEO_FETCH_TIMEOUT, 30 s by default) is decoded and
 *   sampled by the server: `num_frames` uniformly spread frames, or `fps` frames a second (`media_io_kwargs.video`).
 * - `docs/features/multimodal_inputs.md`: the `{"type": "video_url", "video_url": {"url": …}}` content part.
 * OpenRouter (openrouter.ai/docs/features/multimodal/videos) takes the same `video_url` part with an https URL or a
 * base64 data URL of a video file (mp4, mpeg, mov, webm); it forwards no `media_io_kwargs`, and no JPEG lists.
 */
import { videoFrameOf, type ClipSampling } from "../calls/call-record";
import type { ChatVideo } from "../calls/llm-client";

/** A frame as a video part carries it: its time in the source video, and its JPEG as a data URL. */
export interface VideoFrame {
  timestampS: number;
  /** `data:image/jpeg;base64,…` (as the images mode sends it). */
  url: string;
  /**
   * The index of the source frame this picture is (the call record's `videoFrame`); absent or null: the frame on
   * screen at its time by the source's rate.
   */
  videoFrame?: number | null;
}

/** What is known of the source video's timing (the video row's `fps` and `frameCount`). */
export interface SourceTiming {
  fps: number | null;
  frameCount: number | null;
}

/**
 * With no known frame rate, the frames' times are written on a millisecond clock (fps 1000, indices in
 * milliseconds): the model then reads each frame's true time, which is what its temporal positions use.
 */
export const UNKNOWN_FPS_CLOCK = 1000;

function knownFps(fps: number | null): number | null {
  return fps !== null && Number.isFinite(fps) && fps > 0 ? fps : null;
}

/**
 * `media_io_kwargs.video` for frames sent as one JPEG list: their count (so vLLM keeps them all), the source's rate,
 * each frame's index in the source (the frame the picture is: the one on screen at its time, never its time × the
 * rate rounded, which names the next frame past a half), the source's frame count and its duration.
 */
export function framesTiming(
  frames: readonly Pick<VideoFrame, "timestampS" | "videoFrame">[],
  source: SourceTiming,
): { num_frames: number; fps: number; frames_indices: number[]; total_num_frames: number; duration: number } {
  const rate = knownFps(source.fps);
  const fps = rate ?? UNKNOWN_FPS_CLOCK;
  const indices = frames.map((frame) =>
    rate === null
      ? Math.max(0, Math.round(frame.timestampS * fps))
      : (frame.videoFrame ?? videoFrameOf(Math.max(0, frame.timestampS), rate) ?? 0),
  );
  const last = indices.length ? Math.max(...indices) : 0;
  const counted = rate !== null && source.frameCount !== null && source.frameCount > 0 ? source.frameCount : 0;
  // vLLM refuses a total below the frames sent, and an index past the total would be a frame the source lacks.
  const total = Math.max(counted, last + 1, indices.length);
  return {
    num_frames: indices.length,
    fps,
    frames_indices: indices,
    total_num_frames: total,
    duration: roundTo(total / fps, 6),
  };
}

function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** The frames FrameJury chose, in order, as one `video/jpeg` video part with their timing (the `video-frames` mode). */
export function framesVideo(frames: readonly VideoFrame[], source: SourceTiming): ChatVideo {
  const base64s = frames.map((frame, i) => {
    const comma = frame.url.indexOf(",");
    if (!frame.url.startsWith("data:image/jpeg;base64,") || comma < 0)
      throw new Error(`Frame ${i} of a video part is not a JPEG data URL.`);
    return frame.url.slice(comma + 1);
  });
  return {
    url: `data:video/jpeg;base64,${base64s.join(",")}`,
    mediaIo: framesTiming(frames, source),
  };
}

function samplingKwargs(sampling: ClipSampling): Record<string, number> {
  return "numFrames" in sampling ? { num_frames: sampling.numFrames } : { fps: sampling.fps };
}

/** The clip itself as a data URL video part (the `video-file` mode), with the sampling asked. */
export function clipDataVideo(clip: { base64: string; contentType: string }, sampling: ClipSampling): ChatVideo {
  return { url: `data:${clipMediaType(clip.contentType)};base64,${clip.base64}`, mediaIo: samplingKwargs(sampling) };
}

/** The clip's media type as its data URL names it: the video's stored type when it is one, else MP4. */
export function clipMediaType(contentType: string): string {
  return /^video\/[a-z0-9.+-]+$/i.test(contentType) ? contentType.toLowerCase() : "video/mp4";
}

/** The clip as a URL the endpoint fetches (a short-lived signed URL of the app), with the sampling asked. */
export function clipUrlVideo(url: string, sampling: ClipSampling): ChatVideo {
  return { url, mediaIo: samplingKwargs(sampling) };
}

/** A clip's data URL length: the base64 of its bytes and the prefix, to weigh against the largest body an endpoint takes. */
export function clipDataUrlBytes(sizeBytes: number, contentType = "video/mp4"): number {
  return `data:${clipMediaType(contentType)};base64,`.length + Math.ceil(sizeBytes / 3) * 4;
}
