/**
 * The request of one pairwise question: one aspect of one pair, in one order. The judge always sees "Video A" first:
 * in order AB that is the pair's video A, in order BA the pair's video B. Each video's frames are planned by the
 * engine's media planner (lib/judge/input-modes) as a video of its own; the prompt then names which images are
 * whose, with their times ("Video A: images 1–8, at 0.0 s, …"). Nothing here calls an endpoint: frames are read
 * only when a call goes out.
 */
import type { ObjectStorage } from "../../storage/object-storage";
import type { ChatImage } from "../../judge/calls/llm-client";
import type { BuiltRequest } from "../../judge/engine/build-request";
import type { EndpointConfig } from "../../judge/engine/judge-deps";
import type { TemplateSource } from "../../judge/prompts/template-source";
import { responseCacheKey } from "../../judge/engine/cache-key";
import { frameAsSent, sentFrameHash } from "../../judge/media/frame-resize";
import { planRequestMedia } from "../../judge/input-modes/plan-request-media";
import { sawOfFrames } from "../../judge/calls/call-record";
import { splitSystemMessage } from "../../prompt-versions/prompt-templates";
import type { Aspect } from "../aspects";
import { corruptJpeg, damagedFrameHash, type ShownFrame } from "./honeypot-frames";
import type { PairOrder } from "./reconcile";
import { verdictLabelLines } from "./verdict-label";

export const PAIRWISE_TEMPLATE_ID = "pairwise/compare";

/** A video as one order shows it: its frames, and the times its frame list gives (a honeypot copy keeps A's times). */
export interface ShownVideo {
  frames: ShownFrame[];
  timesS: number[];
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
 * The frames a pair's questions read, shared by all of them: each frame is read once per pair, and sent as the same
 * image object in every call, which the client encodes once (lib/judge/calls/llm-client.ts).
 */
export interface PairMedia {
  urls: Map<string, Promise<string>>;
  images: Map<string, ChatImage>;
}

export const newPairMedia = (): PairMedia => ({ urls: new Map(), images: new Map() });

export function buildPairwiseRequest(
  deps: { storage: ObjectStorage; templates: TemplateSource },
  endpoint: EndpointConfig,
  question: PairwiseQuestion,
  shared: PairMedia = newPairMedia(),
): BuiltRequest {
  const template = deps.templates.get(PAIRWISE_TEMPLATE_ID);
  const firstFrames = plannedFrames(question.first, endpoint);
  const secondFrames = plannedFrames(question.second, endpoint);
  const frames = [...firstFrames, ...secondFrames];
  const rendered = template.render({
    prompt: question.prompt,
    aspect: question.aspect.label,
    guideline: question.aspect.guideline || "(none)",
    labels: verdictLabelLines(question.aspect.levels),
  });
  const list = frameListText(
    question.first.timesS.slice(0, firstFrames.length),
    question.second.timesS.slice(0, secondFrames.length),
  );
  const text = `${rendered}\n\n${list}`;
  const messages = splitSystemMessage(template.meta, text);
  const detail = endpoint.sendImageDetail === false ? null : endpoint.imageDetail;
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
    frameSha256s: frames.map((f) => (f.damaged ? damagedFrameHash(f.sha256) : sentFrameHash(f.sha256, undefined))),
    temperature: endpoint.temperature,
    imageDetail: detail ?? "omitted",
    responseFormat: null,
    salt: question.sampleSalt,
    systemRole: messages.system !== null,
    inputMode: "images",
  };
  const media = async () => ({
    images: await Promise.all(frames.map((frame) => chatImage(deps.storage, shared, frame, detail))),
    video: null,
  });
  return {
    templateHash: template.hash,
    request,
    media,
    cacheParts,
    cacheKey: responseCacheKey(cacheParts),
    callRecord: {
      runId: question.runId,
      stepResultId: question.stepResultId,
      videoId: question.pairId,
      text,
      frameIds: frames.map((f) => f.id),
      saw: sawOfFrames("images", frames),
      sent: { detail, imageMaxSide: null, grid: false, videoFrames: 0 },
    },
    batch: null,
  };
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
