/**
 * The request of one pairwise question: one aspect of one pair, in one order. The judge always sees "Video A" first:
 * in order AB that is the pair's video A, in order BA the pair's video B. It sees them one of two ways (pairShowing):
 * - pictures (the `images` run, and whatever cannot go as clips): each video's frames planned by the engine's media
 *   planner (lib/judge/input-modes) as a video of its own, the prompt naming which images are whose, with their times
 *   ("Video A: images 1–8, at 0.0 s, …");
 * - clips (a `video-file` run): the two files as two video parts, each after a text part naming it ("Video A:"), both
 *   sampled by the server at the same number of frames (vLLM applies a request's `media_io_kwargs` to every video in
 *   it, which a pair wants anyway: both videos seen alike).
 * A `video-frames` run is refused at its start (pairwise-run.ts): two JPEG lists in one request would share one
 * `frames_indices`, so at most one video's times could be right. Nothing here calls an endpoint: frames and files are
 * read only when a call goes out.
 */
import type { ObjectStorage } from "../../storage/object-storage";
import type { ChatImage, ChatVideo } from "../../judge/calls/llm-client";
import type { ClipRef } from "../../task-modules/pipeline-types";
import type { InputMode } from "../../judge/input-modes";
import { clipsFitAsData } from "../../judge/input-modes/video-file";
import { clipDataVideo } from "../../judge/media/video-parts";
import type { BuiltRequest } from "../../judge/engine/build-request";
import type { EndpointConfig } from "../../judge/engine/judge-deps";
import type { TemplateSource } from "../../judge/prompts/template-source";
import { responseCacheKey } from "../../judge/engine/cache-key";
import { frameAsSent, sentFrameHash } from "../../judge/media/frame-resize";
import { planRequestMedia } from "../../judge/input-modes/plan-request-media";
import { sawOfClip, sawOfFrames } from "../../judge/calls/call-record";
import { splitSystemMessage } from "../../prompt-versions/prompt-templates";
import type { Aspect } from "../aspects";
import { corruptJpeg, damagedFrameHash, type ShownFrame } from "./honeypot-frames";
import type { PairOrder } from "./reconcile";
import { verdictLabelLines } from "./verdict-label";

export const PAIRWISE_TEMPLATE_ID = "pairwise/compare";

/**
 * A video as one order shows it: its frames, the times its frame list gives (a honeypot copy keeps A's times), and its
 * file (null: it has none to send, a honeypot's broken copy or a deleted video).
 */
export interface ShownVideo {
  frames: ShownFrame[];
  timesS: number[];
  clip: ClipRef | null;
}

export interface PairwiseQuestion {
  runId: string;
  stepResultId: string;
  /** The pair's id: what the call rows name as their "video" (a pairwise call judges two). */
  pairId: string;
  prompt: string;
  aspect: Aspect;
  order: PairOrder;
  /** The video shown first ("Video A") and second ("Video B") in this order. */
  first: ShownVideo;
  second: ShownVideo;
  /** A self-consistency sample's salt (JudgeRun.sampling), asked apart from the other samples. */
  sampleSalt: string | null;
  /** The run's input mode (JudgeRun.inputMode): `video-file` sends the two files where it can. */
  inputMode: InputMode;
}

/** How a question shows its two videos: each one's frames as pictures, or the two files as video parts. */
export type PairShowing = { as: "images" } | { as: "clips"; first: ClipRef; second: ClipRef };

/**
 * The one decision of what a pairwise question shows: the two files in a `video-file` run when both videos have one
 * and both go in one body as data URLs (clipsFitAsData: the endpoint takes clips so, and within the largest body its
 * probe saw accepted); else pictures, as an `images` run's (a honeypot's broken copy has no file of its own; an
 * endpoint that takes clips by URL only is sent pictures, since a pair's clips never go by URL).
 */
export function pairShowing(
  question: { inputMode: InputMode; first: { clip: ClipRef | null }; second: { clip: ClipRef | null } },
  endpoint: { capabilities?: Parameters<typeof clipsFitAsData>[1] },
): PairShowing {
  const { first, second } = question;
  if (question.inputMode !== "video-file" || !first.clip || !second.clip) return { as: "images" };
  return clipsFitAsData([first.clip, second.clip], endpoint.capabilities)
    ? { as: "clips", first: first.clip, second: second.clip }
    : { as: "images" };
}

/** Each video's frames as the engine's planner plans a request of its own frames (images, in time order). */
function plannedFrames(video: ShownVideo, endpoint: EndpointConfig): ShownFrame[] {
  const plan = planRequestMedia({
    runMode: "images",
    scope: "video",
    input: { frames: video.frames },
    exampleFrames: [],
    clip: null,
    batch: false,
    capabilities: endpoint.capabilities,
  });
  return plan.imageFrames as ShownFrame[];
}

const seconds = (t: number) => `${t.toFixed(1)} s`;

/** The prompt's frame list: which images are Video A's and which Video B's, with their times. */
export function frameListText(first: number[], second: number[]): string {
  const line = (name: string, from: number, times: number[]) =>
    `${name}: images ${from}–${from + times.length - 1}, at ${times.map(seconds).join(", ")}`;
  return ["The images follow this text:", line("Video A", 1, first), line("Video B", first.length + 1, second)].join(
    "\n",
  );
}

/**
 * How the server samples each clip of a question sent as clips: the frames per video the run shows (the more of the
 * two videos' counts, which are the run's frames per video unless a video has fewer), the same for both.
 */
export function pairClipSampling(firstFrames: number, secondFrames: number): { numFrames: number } {
  return { numFrames: Math.max(firstFrames, secondFrames, 1) };
}

/** The prompt's line of a question sent as clips: which clip is whose, and how the server samples them. */
export function clipListText(frames: number): string {
  return `The two videos follow this text as video clips, each played from its first frame to its last and sampled at ${frames} frames: first Video A, then Video B.`;
}

/**
 * The frames and files a pair's questions read, shared by all of them: each frame (and each file) is read once per
 * pair, and sent as the same object in every call, which the client encodes once (lib/judge/calls/llm-client.ts).
 */
export interface PairMedia {
  urls: Map<string, Promise<string>>;
  images: Map<string, ChatImage>;
  clips: Map<string, Promise<ChatVideo>>;
}

export const newPairMedia = (): PairMedia => ({ urls: new Map(), images: new Map(), clips: new Map() });

export function buildPairwiseRequest(
  deps: { storage: ObjectStorage; templates: TemplateSource },
  endpoint: EndpointConfig,
  question: PairwiseQuestion,
  shared: PairMedia = newPairMedia(),
): BuiltRequest {
  const template = deps.templates.get(PAIRWISE_TEMPLATE_ID);
  const showing = pairShowing(question, endpoint);
  const rendered = template.render({
    prompt: question.prompt,
    aspect: question.aspect.label,
    guideline: question.aspect.guideline || "(none)",
    labels: verdictLabelLines(question.aspect.levels),
  });
  const shown =
    showing.as === "clips"
      ? clipsShown(deps.storage, shared, question, showing)
      : picturesShown(deps.storage, shared, question, endpoint);
  const text = `${rendered}\n\n${shown.list}`;
  const messages = splitSystemMessage(template.meta, text);
  const request = {
    model: endpoint.model,
    system: messages.system,
    text: messages.user,
    temperature: endpoint.temperature,
    responseFormat: null,
  };
  const cacheParts = {
    model: endpoint.model,
    templateHash: template.hash,
    text,
    frameSha256s: shown.frameSha256s,
    temperature: endpoint.temperature,
    imageDetail: shown.detail ?? "omitted",
    responseFormat: null,
    salt: question.sampleSalt,
    systemRole: messages.system !== null,
    inputMode: shown.mode,
    video: shown.cacheVideo,
  };
  return {
    templateHash: template.hash,
    request,
    media: shown.media,
    cacheParts,
    cacheKey: responseCacheKey(cacheParts),
    callRecord: {
      runId: question.runId,
      stepResultId: question.stepResultId,
      videoId: question.pairId,
      text,
      frameIds: shown.frameIds,
      saw: shown.saw,
      sent: { detail: shown.detail, imageMaxSide: null, grid: false, videoFrames: 0 },
    },
    batch: null,
  };
}

/** What a question shows, one way or the other: its prompt line, media, record and cache identity. */
interface Shown {
  mode: InputMode;
  list: string;
  detail: ChatImage["detail"];
  frameSha256s: string[];
  frameIds: string[];
  saw: BuiltRequest["callRecord"]["saw"];
  cacheVideo: unknown;
  media: BuiltRequest["media"];
}

/** Each video's frames as pictures, Video A's first, with the list of which are whose. */
function picturesShown(
  storage: ObjectStorage,
  shared: PairMedia,
  question: PairwiseQuestion,
  endpoint: EndpointConfig,
): Shown {
  const firstFrames = plannedFrames(question.first, endpoint);
  const secondFrames = plannedFrames(question.second, endpoint);
  const frames = [...firstFrames, ...secondFrames];
  const detail = endpoint.sendImageDetail === false ? null : endpoint.imageDetail;
  return {
    mode: "images",
    list: frameListText(
      question.first.timesS.slice(0, firstFrames.length),
      question.second.timesS.slice(0, secondFrames.length),
    ),
    detail,
    frameSha256s: frames.map((f) => (f.damaged ? damagedFrameHash(f.sha256) : sentFrameHash(f.sha256, undefined))),
    frameIds: frames.map((f) => f.id),
    saw: sawOfFrames("images", frames),
    cacheVideo: null,
    media: async () => ({
      images: await Promise.all(frames.map((frame) => chatImage(storage, shared, frame, detail))),
      video: null,
    }),
  };
}

/**
 * The two files as video parts, each sampled at the frames per video the run asked (the frames it would have shown),
 * captioned "Video A:" and "Video B:". The record keeps Video A's clip as its `clip` and both in `clips`.
 */
function clipsShown(
  storage: ObjectStorage,
  shared: PairMedia,
  question: PairwiseQuestion,
  showing: Extract<PairShowing, { as: "clips" }>,
): Shown {
  const sampling = pairClipSampling(question.first.frames.length, question.second.frames.length);
  const sawClip = (clip: ClipRef) => ({ sha256: clip.sha256, durationS: clip.durationS ?? 0, sampling });
  const clips = [showing.first, showing.second];
  return {
    mode: "video-file",
    list: clipListText(sampling.numFrames),
    detail: null,
    frameSha256s: [],
    frameIds: [],
    saw: { ...sawOfClip(sawClip(showing.first)), clips: clips.map(sawClip) },
    cacheVideo: ["clips", clips.map((clip) => clip.sha256), sampling],
    media: async () => {
      const [a, b] = await Promise.all(clips.map((clip) => clipVideo(storage, shared, clip, sampling)));
      return {
        images: [],
        video: null,
        videos: [
          { caption: "Video A:", video: a! },
          { caption: "Video B:", video: b! },
        ],
      };
    },
  };
}

/** A file as a data URL video part, read once per pair and sampling however often it is sent. */
function clipVideo(
  storage: ObjectStorage,
  shared: PairMedia,
  clip: ClipRef,
  sampling: { numFrames: number },
): Promise<ChatVideo> {
  const key = `${clip.sha256}|${sampling.numFrames}`;
  let video = shared.clips.get(key);
  if (!video) {
    video = storage
      .getBytes(clip.storageKey)
      .then((bytes) => clipDataVideo({ base64: bytes.toString("base64"), contentType: clip.contentType }, sampling));
    shared.clips.set(key, video);
    // A failed read is not kept: the next question that needs the file tries again.
    video.catch(() => shared.clips.delete(key));
  }
  return video;
}

/** A frame's image object, one per frame, damage and detail for all the pair's calls. */
async function chatImage(
  storage: ObjectStorage,
  shared: PairMedia,
  frame: ShownFrame,
  detail: ChatImage["detail"],
): Promise<ChatImage> {
  const url = await frameUrl(storage, shared.urls, frame);
  const key = `${frame.id}|${frame.damaged}|${detail ?? ""}`;
  let image = shared.images.get(key);
  if (!image || image.url !== url) shared.images.set(key, (image = { url, detail }));
  return image;
}

/** A frame as a data URL, read once per pair however often it is shown (a frozen copy shows one frame N times). */
function frameUrl(storage: ObjectStorage, read: Map<string, Promise<string>>, frame: ShownFrame): Promise<string> {
  const key = `${frame.id}|${frame.damaged}`;
  let url = read.get(key);
  if (!url) {
    url = storage.getBytes(frame.storageKey).then((bytes) => {
      const sent = frame.damaged ? corruptJpeg(frameAsSent(bytes, undefined)) : frameAsSent(bytes, undefined);
      return `data:image/jpeg;base64,${sent.toString("base64")}`;
    });
    read.set(key, url);
    // A failed read is not kept: the next question that needs the frame tries again.
    url.catch(() => read.delete(key));
  }
  return url;
}
