/**
 * TEST TOOL. The pictures and videos of a chat request as the stub's rules see them, and the refusals of a server
 * that takes video only, takes no video, or limits frames and bodies (../stub-video.ts).
 */
import type http from "node:http";
import type { ParsedChatBody } from "../chat-body";
import type { ChatRequest } from "../chat-request";
import { sendJson } from "../stub-http";
import {
  readVideoUrl,
  samplingOf,
  stubPromptTokens,
  StubVideoError,
  videoModeOf,
  type StubVideo,
  type StubVideoOptions,
} from "../stub-video";

/** What the rules see of a request's media, in the order of its parts: each image, then each video's frames. */
export interface RequestMedia {
  /** A hash per image the rules see (image parts and video frames, in order). */
  images: string[];
  /** The data URLs of those that have one (image parts and JPEG frames). */
  imageUrls: string[];
  imageParts: number;
  videos: StubVideo[];
}

/** OpenAI's error shape, as vLLM's newer servers and OpenAI's API answer a bad request. */
function sendInvalid(res: http.ServerResponse, status: number, message: string, code: string | null = null) {
  sendJson(res, status, { error: { message, type: "invalid_request_error", param: null, code } });
}

type MediaPart = { kind: "image"; url: string } | { kind: "video"; url: string };

function mediaParts(body: ChatRequest): MediaPart[] {
  const parts: MediaPart[] = [];
  for (const message of body.messages) {
    if (typeof message.content === "string" || !message.content) continue;
    for (const part of message.content) {
      if (part.type === "image_url" && part.image_url) parts.push({ kind: "image", url: part.image_url.url });
      if (part.type === "video_url" && part.video_url) parts.push({ kind: "video", url: part.video_url.url });
    }
  }
  return parts;
}

/**
 * A request the server's video settings refuse before reading its media: a body over `maxBodyBytes` (413), a video
 * part to a server without video ("no-video", OpenAI's words), more than one image to a server started for video.
 * True when it was answered.
 */
export function refusedBySettings(
  res: http.ServerResponse,
  options: StubVideoOptions,
  body: ChatRequest,
  bodyBytes: number,
): boolean {
  if (options.maxBodyBytes !== null && bodyBytes > options.maxBodyBytes) {
    sendInvalid(res, 413, `Request body too large: ${bodyBytes} bytes (at most ${options.maxBodyBytes}).`);
    return true;
  }
  const parts = mediaParts(body);
  const mode = videoModeOf(options, body.model);
  if (mode === "no-video" && parts.some((part) => part.kind === "video")) {
    sendInvalid(
      res,
      400,
      "Invalid content part type: video_url is not supported. Supported types are text and image_url.",
      "invalid_value",
    );
    return true;
  }
  const images = parts.filter((part) => part.kind === "image").length;
  if (mode === "video-only" && images > 1) {
    sendInvalid(
      res,
      400,
      `At most 1 image(s) may be provided in one request; this server was started for video (${images} images sent).`,
    );
    return true;
  }
  return false;
}

/** A server that fetches clips by URL and takes none as a data URL (its option, or "url-clips" in the model's name). */
function clipsByUrlOnly(options: StubVideoOptions, model: string): boolean {
  return options.clips === "url-only" || /url-clips/i.test(model);
}

/**
 * The request's media read in order (an image's URL resolved from the cut-out body, a video read by
 * ../stub-video.ts); null when a video could not be read, has more frames than the server takes, or is a clip as a
 * data URL to a server that takes clips by URL only (answered with a 400 saying why).
 */
export async function readMedia(
  res: http.ServerResponse,
  options: StubVideoOptions,
  body: ChatRequest,
  parsed: ParsedChatBody,
): Promise<RequestMedia | null> {
  const media: RequestMedia = { images: [], imageUrls: [], imageParts: 0, videos: [] };
  const sampling = samplingOf(body as Record<string, unknown>);
  for (const part of mediaParts(body)) {
    const resolved = parsed.imageOf(part.url);
    if (part.kind === "image") {
      media.images.push(resolved.hash);
      media.imageUrls.push(resolved.url);
      media.imageParts += 1;
      continue;
    }
    if (clipsByUrlOnly(options, body.model) && /^data:video\/(?!jpeg)/i.test(resolved.url)) {
      sendInvalid(
        res,
        400,
        "A video_url clip must be an http(s) URL this server fetches: data: URL clips are not accepted.",
      );
      return null;
    }
    let video: StubVideo;
    try {
      video = await readVideoUrl(resolved.url, sampling);
    } catch (error) {
      if (!(error instanceof StubVideoError)) throw error;
      sendInvalid(res, 400, error.message);
      return null;
    }
    if (options.maxVideoFrames !== null && video.frames.length > options.maxVideoFrames) {
      sendInvalid(
        res,
        400,
        `The video has ${video.frames.length} frames; at most ${options.maxVideoFrames} frames may be provided per video.`,
      );
      return null;
    }
    media.videos.push(video);
    for (const frame of video.frames) {
      media.images.push(frame.hash);
      if (frame.url) media.imageUrls.push(frame.url);
    }
  }
  return media;
}

/** The request's prompt tokens by the stub's token rule. */
export function promptTokensOf(text: string, media: RequestMedia): number {
  return stubPromptTokens(text, media.imageParts, media.videos);
}
