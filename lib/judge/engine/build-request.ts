/**
 * What a step sends: its prompt rendered into messages, its frames as images (or one grid of them), its
 * response format and sampling options, the response-cache key of all that, and the record its call rows keep.
 * Nothing here calls an endpoint; frames are read only when a call needs its images.
 */
import type { PrismaClient } from "../../generated/prisma/client";
import type { ObjectStorage } from "../../storage/object-storage";
import { ValidationError } from "../../errors";
import type { ChatImage, ChatRequest } from "../calls/llm-client";
import type { TemplateSource } from "../prompts/template-source";
import { imagesFirst, splitSystemMessage, templateTurns } from "../../prompt-versions/prompt-templates";
import { templateExamplesText, type TemplateExample } from "../../prompt-versions/template-examples";
import { responseFormatFor } from "../endpoints/endpoint-capabilities";
import { frameAsSent, sentFrameHash } from "../media/frame-resize";
import { gridFor, tileFrames, tilingNote } from "../media/frame-tiling";
import type { CallSaw, SentShape } from "../calls/call-record";
import { signedClipUrl } from "../media/clip-urls";
import { responseCacheKey } from "./cache-key";
import {
  planRequestMedia,
  requestVideoPart,
  sawOfPlan,
  videoCachePart,
  videoPartNote,
} from "../input-modes/plan-request-media";
import type { MediaPlan, MediaReads } from "../input-modes/media-plan";
import { clipGoesByUrl } from "../input-modes/video-file";
import type { EndpointConfig } from "./judge-deps";
import { templateIdOf } from "./pipeline";
import type {
  ClipRef,
  FrameRef,
  StepDefinition,
  StepInput,
  StepOutputs,
  VideoContext,
} from "../../task-modules/pipeline-types";
import type { StepRow } from "./step-store";

/** What every step of one video shares to build its request. */
export interface RequestWork {
  runId: string;
  projectId: string;
  batchMode: boolean;
  sampleSalt: string | null;
  context: VideoContext;
  outputs: StepOutputs;
  templates: TemplateSource;
  frameUrls: Map<string, Promise<string>>;
  /** The video's frames as request images, one object per frame, size and detail for all its calls (the client encodes each object once). */
  chatImages: Map<string, ChatImage>;
}

export type CacheParts = Parameters<typeof responseCacheKey>[0];

/** A batch-mode request's frames: read when the batch is written, not now. */
export type BatchFrames = { frames: { storageKey: string; detail: ChatImage["detail"]; maxSide?: number }[] };

/** What a call row of a step's request records of it. */
export interface CallRecord {
  runId: string;
  stepResultId: string;
  videoId: string;
  text: string;
  frameIds: string[];
  /** What the request shows the judge (lib/judge/calls/call-record.ts): every call row of the request keeps it. */
  saw: CallSaw;
  /** How its media went (detail, size, grid, the video part's frames): what a replay of the call needs. */
  sent: SentShape;
}

export interface BuiltRequest {
  templateHash: string;
  /** The request without its images and video, which `media()` reads only for a call that goes out. */
  request: Omit<ChatRequest, "images" | "video" | "videos">;
  media(): Promise<Pick<ChatRequest, "images" | "video" | "videos">>;
  /** The cache key's parts, from which the keys of the step's further requests (a repair, a longer answer) derive. */
  cacheParts: CacheParts;
  cacheKey: string;
  callRecord: CallRecord;
  /** Set when the request goes in a batch line (a batch-mode run's endpoint that serves the Batch API). */
  batch: BatchFrames | null;
}

/**
 * How many `top_logprobs` a step asks for: the endpoint's setting when it requests logprobs, unless its probe
 * found they do not come back (`capabilities.topLogprobs` false: refused or absent), then none, so the calls
 * are not refused for it; never probed or not settled: asked.
 */
export function logprobsToAsk(
  endpoint: Pick<EndpointConfig, "requestLogprobs" | "topLogprobs" | "capabilities">,
): number | null {
  if (!endpoint.requestLogprobs || endpoint.capabilities?.topLogprobs === false) return null;
  return endpoint.topLogprobs ?? 5;
}

/**
 * The answer schema a step asks for with this input (a rubric's pinned criteria, say), before the endpoint's JSON
 * mode shapes it (responseFormatFor); null when it asks for none. The cost estimate reads answer lengths from it.
 */
export function stepResponseFormat(step: StepDefinition, input: StepInput): Record<string, unknown> | null {
  return step.responseFormatFor?.(input) ?? step.responseFormat ?? null;
}

/** The request a step that asks an LLM sends for its input. */
export async function buildRequest(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  work: RequestWork,
  call: { endpoint: EndpointConfig; step: StepDefinition; row: StepRow; input: StepInput },
): Promise<BuiltRequest> {
  const { endpoint, step, row, input } = call;
  const template: ReturnType<TemplateSource["get"]> =
    step.inlineTemplate?.(work.context) ?? work.templates.get(templateIdOf(step, row.scopeIndex, work.context));
  // A template's few-shot examples (a prompt version's, lib/prompt-versions/template-examples.ts) follow its body, never the
  // judged video itself; their frames follow the video's own, sized as those are, and count as images as those do.
  const examples = (template.examples ?? []).filter((e) => e.videoId !== work.context.videoId);
  const rendered = template.render(input.values);
  const text = examples.length ? `${rendered}\n\n${templateExamplesText(examples)}` : rendered;
  // The run's input mode decides which frames go as one video part (or the clip instead) and which as images.
  const plan = planRequestMedia({
    runMode: work.context.inputMode ?? "images",
    scope: step.scope,
    input,
    exampleFrames: examples.length ? await exampleFrames(deps.prisma, work.projectId, examples) : [],
    clip: work.context.clip ?? null,
    batch: Boolean(work.batchMode && endpoint.supportsBatchApi),
    capabilities: endpoint.capabilities,
  });
  const frames = plan.imageFrames;
  const messages = splitSystemMessage(template.meta, text);
  // The strongest JSON mode the endpoint's probe found (json_schema > json_object > none); never probed: json_schema is asked for.
  const responseFormat = responseFormatFor(endpoint, stepResponseFormat(step, input));
  const detail = endpoint.sendImageDetail === false ? null : endpoint.imageDetail;
  // Batch mode: the request goes in a batch line (with the same body the online call sends); its frames are read when the batch is written.
  const batch =
    work.batchMode && endpoint.supportsBatchApi
      ? {
          frames: frames.map((f) => ({
            storageKey: f.storageKey,
            detail: endpoint.imageDetail,
            ...(input.imageMaxSide ? { maxSide: input.imageMaxSide } : {}),
          })),
        }
      : null;
  // More frames than the endpoint takes per request: one grid image of them all, which the prompt describes.
  const grid = plan.grid ? gridFor(frames.length) : null;
  const note = requestNote(plan);
  const turns = templateTurns(template.meta);
  const request = {
    model: endpoint.model,
    system: messages.system,
    text: note ? `${messages.user}\n\n${note}` : messages.user,
    temperature: endpoint.temperature,
    responseFormat,
    topLogprobs: logprobsToAsk(endpoint),
    ...(turns.length ? { turns } : {}),
    ...(imagesFirst(template.meta) ? { imagesFirst: true } : {}),
  };
  // Frames are read only for a call that goes out: a cached answer needs their hashes alone.
  const frameUrls = () =>
    Promise.all(frames.map((frame) => frameDataUrl(deps.storage, work.frameUrls, frame, input.imageMaxSide)));
  const images = grid
    ? async () => [
        {
          url: `data:image/jpeg;base64,${tileFrames((await frameUrls()).map(bytesOfDataUrl)).jpeg.toString("base64")}`,
          detail,
        },
      ]
    : async () =>
        (await frameUrls()).map((url, i) => chatImageOf(work.chatImages, frames[i]!, input.imageMaxSide, url, detail));
  const media = async () => ({
    images: await images(),
    video: await requestVideoPart(plan, mediaReads(deps.storage, work, endpoint, input.imageMaxSide)),
  });
  const cacheParts = {
    model: endpoint.model,
    templateHash: template.hash,
    text: note ? `${text}\n\n${note}` : text,
    frameSha256s: [...plan.videoFrames, ...frames].map((f) => sentFrameHash(f.sha256, input.imageMaxSide)),
    temperature: endpoint.temperature,
    imageDetail: detail ?? "omitted",
    responseFormat,
    salt: work.sampleSalt === null ? (input.cacheSalt ?? null) : `${work.sampleSalt}|${input.cacheSalt ?? ""}`,
    systemRole: messages.system !== null,
    inputMode: plan.mode,
    video: videoCachePart(plan, work.context),
  };
  return {
    templateHash: template.hash,
    request,
    media,
    cacheParts,
    cacheKey: responseCacheKey(cacheParts),
    callRecord: {
      runId: work.runId,
      stepResultId: row.id,
      videoId: work.context.videoId,
      text: cacheParts.text,
      frameIds: [...plan.videoFrames, ...frames].map((f) => f.id),
      saw: sawOfPlan(plan, work.context),
      sent: {
        detail,
        imageMaxSide: input.imageMaxSide ?? null,
        grid: grid !== null,
        videoFrames: plan.videoFrames.length,
      },
    },
    batch,
  };
}

/** How a request's video part is read when its call goes out: frames as the images mode reads them, the clip once per video. */
function mediaReads(storage: ObjectStorage, work: RequestWork, endpoint: EndpointConfig, maxSide?: number): MediaReads {
  return {
    frameUrl: (frame: FrameRef) => frameDataUrl(storage, work.frameUrls, frame, maxSide),
    clipBase64: (clip: ClipRef) => clipBase64(storage, work.frameUrls, clip),
    clipUrl: (clip: ClipRef) =>
      clipGoesByUrl(clip, endpoint.capabilities)
        ? signedClipUrl(work.context.videoId, work.runId, CLIP_URL_TTL_S)
        : null,
    source: work.context,
  };
}

/** How long a signed clip URL lives: long enough for a server to fetch it (vLLM waits 30 s by default), no longer. */
export const CLIP_URL_TTL_S = 300;

/** The clip's bytes in base64, read once per video however many of its calls send it (kept beside its frames). */
function clipBase64(storage: ObjectStorage, read: Map<string, Promise<string>>, clip: ClipRef): Promise<string> {
  const key = `clip:${clip.storageKey}`;
  let base64 = read.get(key);
  if (!base64) {
    base64 = storage.getBytes(clip.storageKey).then((bytes) => bytes.toString("base64"));
    read.set(key, base64);
    base64.catch(() => read.delete(key));
  }
  return base64;
}

function bytesOfDataUrl(url: string): Buffer {
  return Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
}

/** A frame as a data URL (scaled to `maxSide` when asked), read once per video and size however many steps send it. */
function frameDataUrl(
  storage: ObjectStorage,
  read: Map<string, Promise<string>>,
  frame: FrameRef,
  maxSide?: number,
): Promise<string> {
  const key = maxSide ? `${frame.id}@${maxSide}` : frame.id;
  let url = read.get(key);
  if (!url) {
    url = (async () => {
      return `data:image/jpeg;base64,${frameAsSent(await storage.getBytes(frame.storageKey), maxSide).toString("base64")}`;
    })();
    read.set(key, url);
    // A failed read is not kept: the next step that needs the frame tries again.
    url.catch(() => read.delete(key));
  }
  return url;
}

function chatImageOf(
  images: Map<string, ChatImage>,
  frame: FrameRef,
  maxSide: number | undefined,
  url: string,
  detail: ChatImage["detail"],
): ChatImage {
  const key = `${maxSide ? `${frame.id}@${maxSide}` : frame.id}|${detail ?? ""}`;
  let image = images.get(key);
  if (!image || image.url !== url) {
    image = { url, detail };
    images.set(key, image);
  }
  return image;
}

/**
 * The frames of a template's few-shot examples, in the examples' order, from the run's project only (a version
 * naming another project's frame set shows nothing of it). An example whose frame is gone (its video deleted)
 * fails the step with words that say so: the version's examples are part of its hashed text, so it cannot drop one.
 */
async function exampleFrames(
  prisma: PrismaClient,
  projectId: string,
  examples: readonly TemplateExample[],
): Promise<FrameRef[]> {
  const wanted = examples.flatMap((e) =>
    e.frames.map((f) => ({ videoId: e.videoId, frameSetId: f.frameSetId, index: f.index })),
  );
  const rows = await prisma.frame.findMany({
    where: {
      OR: wanted.map(({ videoId, frameSetId, index }) => ({
        frameSetId,
        index,
        frameSet: { videoId, video: { projectId } },
      })),
    },
    select: { id: true, frameSetId: true, index: true, timestampS: true, storageKey: true, sha256: true },
  });
  return wanted.map((w) => {
    const row = rows.find((r) => r.frameSetId === w.frameSetId && r.index === w.index);
    if (!row)
      throw new ValidationError(
        `The prompt version's few-shot example video ${w.videoId} has no frame ${w.index} of frame set ${w.frameSetId} in this project (deleted?): save a version without that example.`,
      );
    return {
      id: row.id,
      index: row.index,
      timestampS: row.timestampS,
      isKeyFrame: false,
      cluster: null,
      storageKey: row.storageKey,
      sha256: row.sha256,
    };
  });
}

/**
 * The lines the engine adds after the prompt for what the request shows: the video part's note, and the grid's when
 * the images are tiled; null when it adds none. The cost estimate counts them too.
 */
export function requestNote(plan: MediaPlan): string | null {
  const count = plan.imageFrames.length;
  const grid = plan.grid ? tilingNote(count, gridFor(count)) : null;
  return [videoPartNote(plan), grid].filter(Boolean).join("\n\n") || null;
}
