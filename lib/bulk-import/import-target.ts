// Where a headless import sends what it reads: a FrameJury server through its HTTP API (an API key), or
// the local database and storage in this process. Both go through the same lib/videos code the upload
// and frame-set routes call, so a file is checked, deduplicated and stored exactly as from the Import page.
import { Readable } from "node:stream";
import { ApiError, apiFetch } from "../api-client";
import type { ProjectAccess } from "../authz/permissions";
import { isAppError } from "../errors";
import { savePromptList, type PromptListReport } from "../videos/prompt-list-store";
import { createFrameSet, findProjectVideo, recordExtractionError } from "../videos/frame-sets";
import type { VideoDeps } from "../videos/register-video";
import {
  appendUploadChunk,
  cancelUpload,
  completeUpload,
  createUploadSession,
  uploadStatus,
} from "../videos/upload-sessions";
import type { VideoMetadataInput } from "../videos/videos.validation";
import type { ExtractedFrames } from "./native-extraction";

export interface TargetVideo {
  id: string;
  status: string;
  prompt: string | null;
}

export interface UploadSession {
  uploadId: string;
  receivedBytes: number;
  chunkBytes: number;
}

export interface ImportTarget {
  /** Where the videos go, for messages ("http://host:3000", "the local database"). */
  readonly description: string;
  /** Stores a prompt list (`dryRun`: stores nothing); the answer says what it matches (POST …/prompt-lists). */
  savePromptList(fileName: string, text: string, options?: { dryRun?: boolean }): Promise<PromptListReport>;
  /** Refuses a file whose bytes the project has (code "duplicate", with the video's id: duplicateVideoId). */
  startUpload(input: {
    relativePath: string;
    sizeBytes: number;
    sha256: string;
    model?: string;
    metadata?: VideoMetadataInput;
  }): Promise<UploadSession>;
  uploadStatus(uploadId: string): Promise<{ status: string; receivedBytes: number }>;
  appendChunk(uploadId: string, offset: number, bytes: Uint8Array): Promise<{ receivedBytes: number }>;
  completeUpload(uploadId: string): Promise<TargetVideo>;
  cancelUpload(uploadId: string): Promise<void>;
  video(videoId: string): Promise<TargetVideo>;
  saveFrameSet(videoId: string, frames: ExtractedFrames): Promise<{ frameSetId: string; created: boolean }>;
  recordExtractionError(videoId: string, message: string): Promise<void>;
}

/** A refusal from either target: the HTTP status and the API's error code, whichever way it came. */
export function refusalOf(error: unknown): { status: number; code: string; message: string } | null {
  if (isAppError(error) || error instanceof ApiError)
    return { status: error.status, code: error.code, message: error.message };
  return null;
}

/** The existing video a "duplicate" refusal names. */
export function duplicateVideoId(error: unknown): string | null {
  if (isAppError(error) && error.code === "duplicate")
    return typeof error.details?.videoId === "string" ? error.details.videoId : null;
  if (error instanceof ApiError && error.code === "duplicate") {
    const videoId = (error.body as { error?: { details?: { videoId?: unknown } } } | null)?.error?.details?.videoId;
    return typeof videoId === "string" ? videoId : null;
  }
  return null;
}

function targetVideo(video: { id: string; status: string; prompt: string | null }): TargetVideo {
  return { id: video.id, status: video.status, prompt: video.prompt };
}

/** This process, on the local database and storage, acting with `access` (an actor's checked right to import). */
export function localTarget(deps: VideoDeps, access: ProjectAccess<"videos.import">): ImportTarget {
  return {
    description: `the local database (as ${access.actor.email})`,
    savePromptList: (fileName, text, options) => savePromptList(deps, access, fileName, text, options),
    startUpload: (input) => createUploadSession(deps, access, input),
    uploadStatus: (uploadId) => uploadStatus(deps, access, uploadId),
    appendChunk: (uploadId, offset, bytes) =>
      appendUploadChunk(deps, access, uploadId, offset, Readable.from([Buffer.from(bytes)]), bytes.byteLength),
    completeUpload: async (uploadId) => targetVideo(await completeUpload(deps, access, uploadId)),
    cancelUpload: (uploadId) => cancelUpload(deps, access, uploadId),
    video: async (videoId) => targetVideo(await findProjectVideo(deps, access, videoId)),
    saveFrameSet: (videoId, frames) =>
      createFrameSet(deps, access, videoId, {
        parameters: frames.parameters,
        manifest: frames.manifest,
        files: frames.files,
        decoder: frames.decoder,
        decoderVersion: frames.decoderVersion,
      }),
    recordExtractionError: (videoId, message) => recordExtractionError(deps, access, videoId, message),
  };
}

/** A FrameJury server's /api/v1, through the API client, with `Authorization: Bearer <apiKey>`. */
export function serverTarget(baseUrl: string, apiKey: string, projectId: string): ImportTarget {
  const root = baseUrl.replace(/\/+$/, "");
  const authorization = `Bearer ${apiKey}`;
  const call = <T>(path: string, init: RequestInit = {}) =>
    apiFetch<T>(`${root}${path}`, {
      ...init,
      headers: { authorization, ...(init.headers as Record<string, string> | undefined) },
    });
  const json = <T>(path: string, body: unknown) =>
    call<T>(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const project = `/api/v1/projects/${encodeURIComponent(projectId)}`;
  const upload = (uploadId: string) => `/api/v1/uploads/${encodeURIComponent(uploadId)}`;
  const video = (videoId: string) => `/api/v1/videos/${encodeURIComponent(videoId)}`;
  return {
    description: root,
    savePromptList: (fileName, text, options) => {
      const form = new FormData();
      form.set("file", new Blob([text], { type: "text/plain" }), fileName);
      return call(`${project}/prompt-lists${options?.dryRun ? "?dryRun=true" : ""}`, { method: "POST", body: form });
    },
    startUpload: (input) => json(`${project}/uploads`, input),
    uploadStatus: (uploadId) => call(upload(uploadId)),
    appendChunk: (uploadId, offset, bytes) =>
      call(`${upload(uploadId)}?offset=${offset}`, {
        method: "PUT",
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: { "content-type": "application/octet-stream" },
      }),
    completeUpload: (uploadId) => json(`${upload(uploadId)}/complete`, {}),
    cancelUpload: async (uploadId) => {
      await call(upload(uploadId), { method: "DELETE" });
    },
    video: (videoId) => call(video(videoId)),
    saveFrameSet: (videoId, frames) => {
      const form = new FormData();
      form.set("parameters", JSON.stringify(frames.parameters));
      form.set("manifest", JSON.stringify(frames.manifest));
      form.set("decoder", frames.decoder);
      form.set("decoderVersion", frames.decoderVersion);
      for (const entry of frames.manifest)
        form.append(
          entry.name,
          new Blob([frames.files.get(entry.name)! as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }),
          entry.name,
        );
      return call(`${video(videoId)}/frame-sets`, { method: "POST", body: form });
    },
    recordExtractionError: async (videoId, message) => {
      await json(`${video(videoId)}/extraction-error`, { message: message.slice(0, 2000) });
    },
  };
}
