/**
 * A judge call sent again from its record: the stored prompt (its text, system role, turns, follow-up), the frames
 * by id, the input mode, the media's shape (detail, size, grid, video part) and the generation parameters rebuild the
 * request body the call sent, byte for byte when the frames and the video are unchanged. A dry run returns that body;
 * a replay sends it to the run's endpoint and returns the answer. Either way nothing is stored: a replay is never a
 * call of the run, so it bills nothing into the run's tokens, cost or cache.
 */
import { clipRefOf, VIDEO_CLIP_SELECT } from "../../videos/video-clip";
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ObjectStorage } from "../../storage/object-storage";
import type { ProjectAccess } from "../../authz/permissions";
import { ConflictError, ForbiddenError, NotFoundError } from "../../errors";
import { isBlindFor, judgeValueSteps } from "../../visibility/judge-visibility";
import type { TaskDeclaration } from "../../task-modules/task-declaration";
import { frameAsSent } from "../media/frame-resize";
import { tileFrames } from "../media/frame-tiling";
import {
  chatCompletionBody,
  LlmError,
  type ChatImage,
  type ChatRequest,
  type ChatVideo,
  type LlmClient,
} from "./llm-client";
import { sentShapeSchema, storedSaw, requestBodyBytes, type CallSaw, type SentShape } from "./call-record";
import { clipGoesByUrl } from "../input-modes/video-file";
import { planOfRecord, requestVideoPart } from "../input-modes/plan-request-media";
import type { MediaPlan } from "../input-modes/media-plan";
import { CLIP_URL_TTL_S } from "../engine/build-request";
import type { ClipRef, FrameRef } from "../../task-modules/pipeline-types";
import { signedClipUrl } from "../media/clip-urls";
import type { EndpointConfig } from "../engine/judge-deps";
import { stepErrorMessage } from "./step-errors";

/** A call's stored `request` as replay reads it (lib/judge/engine/answer.ts writes it). */
const storedRequestSchema = z.object({
  text: z.string(),
  temperature: z.number().nullable().optional(),
  responseFormat: z.record(z.string(), z.unknown()).nullable().optional(),
  responseFormatJson: z.string().optional(),
  followUp: z.object({ previousAnswer: z.string(), correction: z.string() }).nullable().optional(),
  maxTokens: z.number().int().positive().optional(),
  systemRole: z.literal(true).optional(),
  turns: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })).optional(),
  imagesFirst: z.literal(true).optional(),
  topLogprobs: z.number().int().positive().optional(),
  sent: sentShapeSchema,
});
type StoredRequest = z.infer<typeof storedRequestSchema>;

export const replayInputSchema = z.strictObject({
  /** True (the default): return the request body that would be sent, and send nothing. */
  dryRun: z.boolean().default(true),
});
export type ReplayInput = z.infer<typeof replayInputSchema>;

export interface ReplayDeps {
  prisma: PrismaClient;
  storage: ObjectStorage;
  /** The run's endpoint with its key, server side only. */
  endpointConfig(runId: string): Promise<EndpointConfig>;
  llmFor(endpoint: EndpointConfig): LlmClient;
  tasks: readonly TaskDeclaration[];
}

export type ReplayResult =
  | { dryRun: true; callId: string; mode: CallSaw["mode"]; bytes: number; body: unknown }
  | {
      dryRun: false;
      callId: string;
      mode: CallSaw["mode"];
      bytesSent: number;
      latencyMs: number;
      /** Not stored: a replay is no call of the run. */
      answer:
        | {
            ok: true;
            text: string | null;
            finishReason: string | null;
            promptTokens: number;
            completionTokens: number;
            usageKnown: boolean;
          }
        | { ok: false; error: string };
    };

/**
 * Replays one call of a run (an owner's action: a live replay spends on the endpoint). The call's step must not be
 * one the caller holds blind (its follow-up would quote the judge's answer, and its answer is the judge's).
 */
export async function replayCall(
  deps: ReplayDeps,
  access: ProjectAccess<"runs.manage">,
  ids: { runId: string; callId: string },
  input: ReplayInput,
): Promise<ReplayResult> {
  const call = await deps.prisma.llmCall.findFirst({
    where: { id: ids.callId, runId: ids.runId, run: { projectId: access.projectId } },
    select: {
      id: true,
      model: true,
      request: true,
      saw: true,
      videoId: true,
      run: { select: { pipeline: true } },
      stepResult: { select: { stepId: true } },
    },
  });
  if (!call) throw new NotFoundError("No such call in this run.");
  if (await isBlindFor(deps.prisma, access.actor.userId, call.videoId)) {
    const scoring = judgeValueSteps(call.run.pipeline, deps.tasks);
    if (scoring === null || scoring.has(call.stepResult.stepId))
      throw new ForbiddenError("You are reviewing this video blind: its scoring calls are hidden until you submit.");
  }
  const endpoint = await deps.endpointConfig(ids.runId);
  const request = await rebuildRequest(deps, { ...call, runId: ids.runId, projectId: access.projectId }, endpoint);
  const saw = storedSaw(call.saw)!;
  if (input.dryRun)
    return {
      dryRun: true,
      callId: call.id,
      mode: saw.mode,
      bytes: requestBodyBytes(request),
      body: chatCompletionBody(request),
    };
  const started = Date.now();
  const bytesSent = requestBodyBytes(request);
  try {
    const result = await deps.llmFor(endpoint).complete(request, { timeoutMs: endpoint.timeoutSeconds * 1000 });
    return {
      dryRun: false,
      callId: call.id,
      mode: saw.mode,
      bytesSent,
      latencyMs: Date.now() - started,
      answer: {
        ok: true,
        text: result.text ?? result.refusal,
        finishReason: result.finishReason,
        promptTokens: result.promptTokens,
        completionTokens: result.completionTokens,
        usageKnown: result.usageKnown !== false,
      },
    };
  } catch (error) {
    const message = error instanceof LlmError ? `${error.kind}: ${stepErrorMessage(error)}` : stepErrorMessage(error);
    return {
      dryRun: false,
      callId: call.id,
      mode: saw.mode,
      bytesSent,
      latencyMs: Date.now() - started,
      answer: { ok: false, error: message },
    };
  }
}

/** The call's request rebuilt from its record; a 409 when the record lacks what that needs or its frames are gone. */
export async function rebuildRequest(
  deps: Pick<ReplayDeps, "prisma" | "storage">,
  call: { model: string; request: unknown; saw: unknown; videoId: string; runId: string; projectId: string },
  endpoint: Pick<EndpointConfig, "capabilities">,
): Promise<ChatRequest> {
  const saw = storedSaw(call.saw);
  const parsed = storedRequestSchema.safeParse(call.request);
  if (!saw || !parsed.success)
    throw new ConflictError(
      "This call was made before its record kept what replaying it needs: it cannot be replayed.",
    );
  const stored = parsed.data;
  const { system, user } = promptOf(stored);
  const media = await mediaOf(deps, call, saw, stored.sent, endpoint);
  return {
    model: call.model,
    system,
    text: user,
    ...media,
    temperature: stored.temperature ?? null,
    responseFormat: responseFormatOf(stored),
    followUp: stored.followUp ?? null,
    ...(stored.turns ? { turns: stored.turns } : {}),
    ...(stored.imagesFirst ? { imagesFirst: true } : {}),
    ...(stored.maxTokens ? { maxTokens: stored.maxTokens } : {}),
    topLogprobs: stored.topLogprobs ?? null,
  };
}

/** The response format as it went: from its JSON text (the JSONB copy has its keys reordered). */
function responseFormatOf(stored: StoredRequest): Record<string, unknown> | null {
  if (stored.responseFormatJson === undefined) return stored.responseFormat ?? null;
  const parsed: unknown = JSON.parse(stored.responseFormatJson);
  return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : null;
}

/** The stored text is the prompt as rendered; with the system role, its first paragraph went as the system message. */
function promptOf(stored: StoredRequest): { system: string | null; user: string } {
  if (!stored.systemRole) return { system: null, user: stored.text };
  const split = stored.text.indexOf("\n\n");
  return split > 0
    ? { system: stored.text.slice(0, split), user: stored.text.slice(split + 2) }
    : { system: null, user: stored.text };
}

async function mediaOf(
  deps: Pick<ReplayDeps, "prisma" | "storage">,
  call: { videoId: string; runId: string; projectId: string },
  saw: CallSaw,
  sent: SentShape,
  endpoint: Pick<EndpointConfig, "capabilities">,
): Promise<{ images: ChatImage[]; video: ChatVideo | null }> {
  const sentFrames = await framesSent(deps, call.projectId, saw, sent.imageMaxSide);
  const source = await sourceOf(deps, call.videoId, saw, Math.min(sent.videoFrames, sentFrames.length));
  const plan = planOfRecord({ saw, sent, frames: sentFrames.map((f) => f.frame), clip: source?.clip ?? null });
  const urlOf = new Map(sentFrames.map((f) => [f.frame.id, f.url]));
  const imageUrls = plan.imageFrames.map((f) => urlOf.get(f.id)!);
  const images: ChatImage[] = plan.grid
    ? [
        {
          url: `data:image/jpeg;base64,${tileFrames(imageUrls.map(bytesOfDataUrl)).jpeg.toString("base64")}`,
          detail: sent.detail,
        },
      ]
    : imageUrls.map((url) => ({ url, detail: sent.detail }));
  const video = source ? await videoOf(deps, call, { plan, saw, urlOf, source, endpoint }) : null;
  return { images, video };
}

type ReplaySource = {
  fps: number | null;
  frameCount: number | null;
  storageKey: string;
  clip: ClipRef | null;
};

/** The judged video as the call's video part needs it; null for a call of pictures only. */
async function sourceOf(
  deps: Pick<ReplayDeps, "prisma">,
  videoId: string,
  saw: CallSaw,
  videoFrames: number,
): Promise<ReplaySource | null> {
  if (!saw.clip && videoFrames === 0) return null;
  const video = await deps.prisma.video.findUniqueOrThrow({
    where: { id: videoId },
    select: { fps: true, frameCount: true, ...VIDEO_CLIP_SELECT },
  });
  if (saw.clip && video.sha256 !== saw.clip.sha256)
    throw new ConflictError("The call sent a clip this video no longer has: it cannot be replayed.");
  const clip = saw.clip ? clipRefOf(video) : null;
  return { fps: video.fps, frameCount: video.frameCount, storageKey: video.storageKey, clip };
}

/** The call's video part, sent as its mode sends it: the source indices its record named, the clip as it goes now. */
function videoOf(
  deps: Pick<ReplayDeps, "storage">,
  call: { videoId: string; runId: string },
  replayed: {
    plan: MediaPlan;
    saw: CallSaw;
    urlOf: ReadonlyMap<string, string>;
    source: ReplaySource;
    endpoint: Pick<EndpointConfig, "capabilities">;
  },
): Promise<ChatVideo | null> {
  const { plan, saw, urlOf, source, endpoint } = replayed;
  return requestVideoPart(plan, {
    frameUrl: async (frame) => urlOf.get(frame.id)!,
    clipBase64: async (clip) => (await deps.storage.getBytes(clip.storageKey)).toString("base64"),
    clipUrl: (clip) =>
      clipGoesByUrl(clip, endpoint.capabilities) ? signedClipUrl(call.videoId, call.runId, CLIP_URL_TTL_S) : null,
    source: { fps: source.fps, frameCount: source.frameCount },
    recordedVideoFrames: saw.frames.slice(0, plan.videoFrames.length).map((f) => f.videoFrame),
  });
}

/** The frames the call saw, in its order, with the data URLs it sent (scaled as they were); frames of this project only. */
async function framesSent(
  deps: Pick<ReplayDeps, "prisma" | "storage">,
  projectId: string,
  saw: CallSaw,
  maxSide: number | null,
): Promise<{ frame: FrameRef; url: string }[]> {
  const ids = saw.frames.map((f) => f.frameId);
  const rows = await deps.prisma.frame.findMany({
    where: { id: { in: ids }, frameSet: { video: { projectId } } },
    select: { id: true, storageKey: true, sha256: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing)
    throw new ConflictError(
      `Frame ${missing}, which the call sent, is gone (its video or frame set deleted): it cannot be replayed.`,
    );
  return Promise.all(
    saw.frames.map(async (seen) => {
      const row = byId.get(seen.frameId)!;
      const bytes = frameAsSent(await deps.storage.getBytes(row.storageKey), maxSide ?? undefined);
      const frame: FrameRef = {
        id: row.id,
        index: seen.index,
        timestampS: seen.timestampS,
        isKeyFrame: false,
        cluster: null,
        storageKey: row.storageKey,
        sha256: row.sha256,
      };
      return { frame, url: `data:image/jpeg;base64,${bytes.toString("base64")}` };
    }),
  );
}

function bytesOfDataUrl(url: string): Buffer {
  return Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
}
