import { requestBodyBytes } from "../calls/call-record";
import type { EndpointCapabilities, InputModeFinding } from "./endpoint-capabilities";
import type { ChatRequest, ChatResult, LlmError } from "../calls/llm-client";
import { PROBE_CLIP } from "./probe-assets/probe-clip";
import { probeJpegFrames } from "./probe-assets/probe-frames";
import { clipDataVideo, clipUrlVideo, framesVideo } from "../media/video-parts";

/**
 * The endpoint probe's input modes (lib/judge/input-modes.ts): after the image questions, one small video request
 * at a time in each video mode, with a tiny clip made for the probe (lib/judge/endpoints/probe-assets):
 * - `video-frames`: 4 solid-colour 32×32 JPEGs (jpeg-js) as one `data:video/jpeg;base64,` part with their timing
 *   (4 fps), then 16 and 64 of them while they are accepted: the most frames one video part carried;
 * - `video-file`: the probe's 1 s, 4-frame MP4 as a `data:video/mp4;base64,` part asking for 4 frames, then the same
 *   clip padded with an MP4 `free` box (which players and decoders skip) to 1 MiB and 4 MiB while accepted: the
 *   largest body it took. A padded clip asks for the same 4 frames, so a larger body costs no more tokens. Then the
 *   same clip by a signed URL of the app (lib/judge/media/clip-urls.ts signedProbeClipUrl), which the endpoint fetches once:
 *   `byUrl`. An endpoint that refused every data URL but took the URL gets its clips by URL.
 * Each asks "How many frames does this video have?" and keeps the number the answer names (what the model says it
 * saw). A refusal (4xx) says the mode is refused and keeps the endpoint's words (sanitised, at most 200 characters);
 * any other failure leaves the mode unsettled, with a note.
 */

export const PROBE_VIDEO_PROMPT = "How many frames does this video have? Answer with a number.";
/** The frame counts a `video-frames` part carries, in order, stopping at the first refusal. */
export const PROBE_VIDEO_FRAME_COUNTS = [4, 16, 64] as const;
/** The clip sizes a `video-file` part carries (the clip itself, then padded), stopping at the first refusal. */
export const PROBE_CLIP_BYTES = [0, 1024 * 1024, 4 * 1024 * 1024] as const;

/** One probe request's outcome, as the probe's attempt gives it (lib/judge/endpoints/endpoint-test.ts). */
export type ProbeAttempt =
  { ok: true; result: ChatResult } | { ok: false; refused: boolean; error: LlmError | null; words: string };
export type ProbeRequest = Omit<ChatRequest, "model" | "temperature">;

/** The probe's MP4 with a trailing `free` box bringing it to `bytes` (the clip as is when that is not larger). */
export function paddedProbeClip(bytes: number): Buffer {
  const clip = Buffer.from(PROBE_CLIP.mp4Base64, "base64");
  const padding = bytes - clip.length;
  if (padding < 8) return clip;
  const box = Buffer.alloc(padding);
  box.writeUInt32BE(padding, 0);
  box.write("free", 4, "latin1");
  return Buffer.concat([clip, box]);
}

/** The first whole number an answer names ("4", "There are 4 frames."), or null. */
export function countInAnswer(text: string | null): number | null {
  const match = /\b(\d{1,5})\b/.exec((text ?? "").replace(/<think>[\s\S]*?<\/think>/gi, ""));
  return match ? Number(match[1]) : null;
}

function framesRequest(count: number): ProbeRequest {
  const frames = probeJpegFrames(count).map((base64, i) => ({
    timestampS: i / PROBE_CLIP.fps,
    url: `data:image/jpeg;base64,${base64}`,
  }));
  const video = framesVideo(frames, { fps: PROBE_CLIP.fps, frameCount: count });
  return { text: PROBE_VIDEO_PROMPT, images: [], video, responseFormat: null };
}

function clipUrlRequest(url: string): ProbeRequest {
  const video = clipUrlVideo(url, { numFrames: PROBE_CLIP.frames });
  return { text: PROBE_VIDEO_PROMPT, images: [], video, responseFormat: null };
}

/**
 * The clip by a signed URL, once: "yes" when answered, "no" when refused, "unknown" otherwise, null when the app
 * cannot sign one (its note says why).
 */
async function probeClipUrl(
  attempt: (request: ProbeRequest) => Promise<ProbeAttempt>,
  clipUrl: (() => string | null) | undefined,
  finding: InputModeFinding,
  notes: string[],
): Promise<void> {
  const url = clipUrl?.() ?? null;
  if (url === null) {
    finding.byUrl = null;
    notes.push("Video file by URL: not tried, since the app has no APP_SECRET to sign a clip URL with.");
    return;
  }
  const outcome = await attempt(clipUrlRequest(url));
  if (outcome.ok) {
    finding.byUrl = "yes";
    if (finding.accepted !== "yes") {
      // The data URL was refused (or unsettled) and the URL answered: the mode works, by URL only.
      finding.accepted = "yes";
      finding.maxFrames = PROBE_CLIP.frames;
      notes.push("Video file: the endpoint took the clip by URL only; every clip goes to it by a signed URL.");
    }
    finding.sawFrames ??= countInAnswer(outcome.result.text);
    return;
  }
  finding.byUrl = outcome.refused ? "no" : "unknown";
  const words = (outcome.error?.excerpt ?? outcome.error?.message ?? outcome.words).slice(0, 200);
  notes.push(`Video file by URL: ${outcome.refused ? "refused" : "no answer"} (${words}).`);
}

function clipRequest(bytes: number): ProbeRequest {
  const base64 = paddedProbeClip(bytes).toString("base64");
  const video = clipDataVideo({ base64, contentType: "video/mp4" }, { numFrames: PROBE_CLIP.frames });
  return { text: PROBE_VIDEO_PROMPT, images: [], video, responseFormat: null };
}

/** A mode probed through its sizes: accepted while the endpoint answers, stopping at the first failure. */
async function probeSizes(
  attempt: (request: ProbeRequest) => Promise<ProbeAttempt>,
  requests: { request: ProbeRequest; frames: number }[],
  label: string,
  notes: string[],
): Promise<{ finding: InputModeFinding; limited: boolean }> {
  const finding: InputModeFinding = {
    accepted: "unknown",
    refusal: null,
    maxFrames: null,
    maxBodyBytes: null,
    sawFrames: null,
  };
  for (const { request, frames } of requests) {
    const bodyBytes = requestBodyBytes({ model: "", ...request });
    const outcome = await attempt(request);
    if (outcome.ok) {
      finding.accepted = "yes";
      finding.maxFrames = frames;
      finding.maxBodyBytes = bodyBytes;
      finding.sawFrames ??= countInAnswer(outcome.result.text);
      continue;
    }
    const words = outcome.error?.excerpt ?? outcome.error?.message ?? outcome.words;
    if (finding.accepted === "yes") {
      // A smaller request was answered: this size is past a limit (a refusal), or unsettled.
      if (!outcome.refused) notes.push(`${label}: stopped at ${Math.round(bodyBytes / 1024)} KiB (${outcome.words}).`);
      return { finding, limited: outcome.refused };
    }
    if (outcome.refused) {
      finding.accepted = "no";
      finding.refusal = words.slice(0, 200);
    } else notes.push(`${label}: no answer (${outcome.words}).`);
    return { finding, limited: false };
  }
  return { finding, limited: false };
}

/**
 * What each input mode does on this endpoint. `images` comes from the image questions already asked; the video
 * modes are asked here. `maxBodyBytes` (top level): the largest body accepted below a refused one, when a body was
 * refused (null: no limit found within the sizes tried).
 */
export async function probeInputModes(
  attempt: (request: ProbeRequest) => Promise<ProbeAttempt>,
  images: { accepted: EndpointCapabilities["images"]; maxImages: number | null; refusal: string | null },
  notes: string[],
  /** A fresh signed URL of the probe's clip, or null when the app cannot sign one. */
  clipUrl?: () => string | null,
): Promise<{ inputModes: NonNullable<EndpointCapabilities["inputModes"]>; maxBodyBytes: number | null }> {
  const frames = await probeSizes(
    attempt,
    PROBE_VIDEO_FRAME_COUNTS.map((count) => ({ request: framesRequest(count), frames: count })),
    "Video frames",
    notes,
  );
  const file = await probeSizes(
    attempt,
    PROBE_CLIP_BYTES.map((bytes) => ({ request: clipRequest(bytes), frames: PROBE_CLIP.frames })),
    "Video file",
    notes,
  );
  await probeClipUrl(attempt, clipUrl, file.finding, notes);
  return {
    inputModes: {
      images: {
        accepted: images.accepted,
        refusal: images.accepted === "no" ? images.refusal : null,
        maxFrames: images.maxImages,
        maxBodyBytes: null,
        sawFrames: null,
      },
      "video-frames": frames.finding,
      "video-file": file.finding,
    },
    maxBodyBytes: file.limited ? file.finding.maxBodyBytes : null,
  };
}
