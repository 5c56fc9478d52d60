/**
 * TEST TOOL. The stub LLM's video inputs: a `video_url` content part in either form a vLLM server takes, turned into
 * what the rules see, and the stub's token rule for usage.
 *
 * - `data:video/jpeg;base64,<b64>,<b64>,…`: vLLM's list of JPEG frames. Each frame is decoded (jpeg-js; a frame that
 *   is not a JPEG refuses the request) and counts as one of the images the rules see, in order, as a
 *   `data:image/jpeg;base64,` URL.
 * - `data:video/mp4;base64,…` (or webm, quicktime): the clip is read with mediabunny (no decoding): its duration and
 *   frame count. The rules see the frames the stub samples (numbered keys under the clip's hash, no pixels): the
 *   `num_frames` the request asks for (`media_io_kwargs.video` or `mm_processor_kwargs`), else `fps` × duration, else
 *   32 (vLLM's default), never more than the clip has. A clip without a video stream refuses the request.
 * - `http(s)://…`: fetched (the app's signed clip URL), then read as a clip; a failed fetch refuses the request.
 *
 * Token rule (usage.prompt_tokens; docs/testing.md): ceil(text characters / 4) + 255 per image part + 128 per video
 * frame (JPEG frames, or the frames sampled from a clip) + 16 per started second of a clip's duration (a JPEG list's
 * frames carry their own time, so it adds no seconds).
 */
import { hash } from "node:crypto";
import jpeg from "jpeg-js";
import { ALL_FORMATS, BufferSource, Input } from "mediabunny";
import { z } from "zod";

export const STUB_TOKENS = { perImage: 255, perVideoFrame: 128, perVideoSecond: 16, charsPerToken: 4 } as const;
/** vLLM's video loaders sample this many frames of a clip when the request names no count or rate. */
const DEFAULT_SAMPLED_FRAMES = 32;

/** How a stub server treats video parts (`POST /__stub/video-options`, or the server's `video` option). */
export const stubVideoOptionsSchema = z.object({
  /**
   * "all": images and video parts; "video-only": a vLLM server started for video (at most one image part, any
   * video); "no-video": OpenAI's API (every `video_url` part refused).
   */
  mode: z.enum(["all", "video-only", "no-video"]).default("all"),
  /** The most frames one video part may carry (JPEG frames, or a clip's sampled frames); null: no limit. */
  maxVideoFrames: z.number().int().min(1).nullable().default(null),
  /** The largest request body accepted, in bytes (a 413 beyond it); null: no limit. */
  maxBodyBytes: z.number().int().min(1).nullable().default(null),
  /** "url-only": a clip only by an http(s) URL it fetches (a provider that takes no `data:` clip); "any": both. */
  clips: z.enum(["any", "url-only"]).default("any"),
});
export type StubVideoOptions = z.infer<typeof stubVideoOptionsSchema>;
/** A change to the options: the fields given, no defaults filled in. */
export const stubVideoOptionsPatch = z.object({
  mode: z.enum(["all", "video-only", "no-video"]).optional(),
  maxVideoFrames: z.number().int().min(1).nullable().optional(),
  maxBodyBytes: z.number().int().min(1).nullable().optional(),
  clips: z.enum(["any", "url-only"]).optional(),
});

/** Model names pick a video mode too, so an e2e that only fills in the endpoint form picks one: "…video-only…", "…no-video…". */
export function videoModeOf(options: StubVideoOptions, model: string): StubVideoOptions["mode"] {
  if (/no-video/i.test(model)) return "no-video";
  if (/video-only/i.test(model)) return "video-only";
  return options.mode;
}

/** One video part as the stub read it. */
export interface StubVideo {
  form: "jpeg-frames" | "clip";
  /** The frames the rules see: a JPEG frame's data URL and hash, or a sampled frame's key (no URL). */
  frames: { url: string | null; hash: string }[];
  /** A clip's duration in seconds; null for a JPEG list. */
  durationS: number | null;
  /** A clip's frame count; the JPEG count for a list. */
  totalFrames: number;
  /** The bytes of the frames or the clip as received. */
  bytes: number;
}

/** Why a video part cannot be read: answered with a 400 in OpenAI's error shape. */
export class StubVideoError extends Error {}

/** The sampling a request asks of a clip: `num_frames` or `fps`, where vLLM reads them. */
export function samplingOf(body: Record<string, unknown>): { numFrames: number | null; fps: number | null } {
  const places = [
    (body.media_io_kwargs as { video?: unknown } | undefined)?.video,
    body.mm_processor_kwargs,
    body.media_io_kwargs,
  ];
  let numFrames: number | null = null;
  let fps: number | null = null;
  for (const place of places) {
    if (!place || typeof place !== "object") continue;
    const values = place as { num_frames?: unknown; fps?: unknown };
    if (numFrames === null && typeof values.num_frames === "number" && values.num_frames > 0)
      numFrames = Math.floor(values.num_frames);
    if (fps === null && typeof values.fps === "number" && values.fps > 0) fps = values.fps;
  }
  return { numFrames, fps };
}

/** A `data:video/jpeg;base64,` list: every frame decoded (a frame that is not a JPEG refuses the request). */
function jpegFrames(payload: string): StubVideo {
  const parts = payload.split(",").filter((part) => part.length > 0);
  if (parts.length === 0) throw new StubVideoError("The video_url's JPEG frame list is empty.");
  let bytes = 0;
  const frames = parts.map((part, index) => {
    const data = Buffer.from(part, "base64");
    bytes += data.length;
    try {
      jpeg.decode(data, { useTArray: true, maxResolutionInMP: 50 });
    } catch {
      throw new StubVideoError(`Frame ${index} of the video_url is not a JPEG image.`);
    }
    const url = `data:image/jpeg;base64,${part}`;
    return { url, hash: hash("sha256", url).slice(0, 16) };
  });
  return { form: "jpeg-frames", frames, durationS: null, totalFrames: frames.length, bytes };
}

/** A clip's bytes read with mediabunny: its duration and frame count, and the frames a server would sample. */
async function clipFrames(
  data: Uint8Array,
  sampling: { numFrames: number | null; fps: number | null },
): Promise<StubVideo> {
  const input = new Input({ source: new BufferSource(data), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryVideoTrack().catch(() => null);
    if (!track) throw new StubVideoError("The video has no video stream.");
    const durationS = await track.computeDuration();
    const { packetCount } = await track.computePacketStats();
    const wanted =
      sampling.numFrames ?? (sampling.fps !== null ? Math.ceil(sampling.fps * durationS) : DEFAULT_SAMPLED_FRAMES);
    const count = Math.max(1, Math.min(wanted, packetCount));
    const clipHash = hash("sha256", data).slice(0, 16);
    const frames = Array.from({ length: count }, (_, i) => ({ url: null, hash: `${clipHash}:${i}` }));
    return { form: "clip", frames, durationS, totalFrames: packetCount, bytes: data.length };
  } catch (error) {
    if (error instanceof StubVideoError) throw error;
    throw new StubVideoError(`The video could not be read: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    input.dispose();
  }
}

/** The most bytes a fetched clip may have: the stub reads it whole. */
const MAX_FETCHED_BYTES = 64 * 1024 * 1024;

/** A `video_url` as the stub reads it: a JPEG list, a clip data URL, or an http(s) URL it fetches. */
export async function readVideoUrl(
  url: string,
  sampling: { numFrames: number | null; fps: number | null },
): Promise<StubVideo> {
  const dataUrl = /^data:([^;,]+);base64,/i.exec(url);
  if (dataUrl) {
    const type = dataUrl[1]!.toLowerCase();
    const payload = url.slice(dataUrl[0].length);
    if (type === "video/jpeg") return jpegFrames(payload);
    if (!type.startsWith("video/")) throw new StubVideoError(`A video_url of type ${type} is not a video.`);
    return clipFrames(Buffer.from(payload, "base64"), sampling);
  }
  if (!/^https?:\/\//i.test(url)) throw new StubVideoError("The video_url is neither a data: URL nor an http(s) URL.");
  let response: Response;
  try {
    response = await fetch(url, { redirect: "error" });
  } catch (error) {
    throw new StubVideoError(`Failed to fetch the video_url: ${error instanceof Error ? error.message : "error"}`);
  }
  if (!response.ok) {
    const excerpt = (await response.text().catch(() => "")).slice(0, 200);
    throw new StubVideoError(`Failed to fetch the video_url: HTTP ${response.status} ${excerpt}`.trim());
  }
  const data = new Uint8Array(await response.arrayBuffer());
  if (data.length > MAX_FETCHED_BYTES) throw new StubVideoError("The fetched video is larger than the stub reads.");
  return clipFrames(data, sampling);
}

/** usage.prompt_tokens by the stub's token rule (this file's header). */
export function stubPromptTokens(text: string, imageParts: number, videos: readonly StubVideo[]): number {
  let tokens = Math.ceil(text.length / STUB_TOKENS.charsPerToken) + imageParts * STUB_TOKENS.perImage;
  for (const video of videos) {
    tokens += video.frames.length * STUB_TOKENS.perVideoFrame;
    if (video.durationS !== null) tokens += Math.ceil(video.durationS) * STUB_TOKENS.perVideoSecond;
  }
  return tokens;
}
