import { createSHA256 } from "hash-wasm";
import { ApiError, apiFetch, postJson } from "@/lib/api-client";
import type {
  UploadChunkAnswer,
  UploadSessionAnswer,
  UploadStatusAnswer,
  VideoAnswer,
} from "@/lib/videos/videos.validation";

const HASH_SLICE = 8 * 1024 * 1024;

/** SHA-256 of a file, read in slices so a 2 GiB file never sits in memory whole. */
export async function sha256OfFile(
  file: Blob,
  onProgress?: (done: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const hasher = await createSHA256();
  hasher.init();
  for (let offset = 0; offset < file.size; offset += HASH_SLICE) {
    signal?.throwIfAborted();
    hasher.update(new Uint8Array(await file.slice(offset, offset + HASH_SLICE).arrayBuffer()));
    onProgress?.(Math.min(file.size, offset + HASH_SLICE));
  }
  return hasher.digest("hex");
}

/** A video as the video routes answer it. */
export type VideoJson = VideoAnswer;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** The upload was cancelled before the video was stored; `discarded` says the server confirmed dropping what had arrived. */
export class UploadCancelledError extends Error {
  constructor(
    readonly sentBytes: number,
    readonly sizeBytes: number,
    readonly discarded: boolean,
  ) {
    const percent = sizeBytes > 0 ? Math.floor((100 * sentBytes) / sizeBytes) : 0;
    const leftover = discarded
      ? ""
      : " (the server did not confirm discarding the partial upload; it is never turned into a video)";
    super(`Upload cancelled at ${percent}%; nothing stored${leftover}.`);
  }
}

/**
 * Uploads one video through a resumable upload session: chunks are sent at the offset the server
 * holds, and after a dropped connection the upload asks where it stands and goes on from there.
 *
 * Cancelling (`signal`) while bytes are still being sent deletes the server's upload session, so no
 * partial file stays behind, and throws UploadCancelledError. Creating the session and completing
 * it are not interrupted: an interrupted create could leave a session the client never learns of,
 * and an interrupted complete may still store the video. Once every byte is sent the video is
 * stored and returned even if the signal fired meanwhile; the caller sees `signal.aborted`.
 */
export async function uploadVideo(options: {
  projectId: string;
  file: Blob;
  relativePath: string;
  sha256: string;
  model?: string;
  metadata?: Record<string, unknown>;
  signal?: AbortSignal;
  onProgress?: (sentBytes: number) => void;
  maxRetries?: number;
}): Promise<VideoJson> {
  const { file, signal } = options;
  signal?.throwIfAborted();
  const session = await postJson<UploadSessionAnswer>(
    `/api/v1/projects/${encodeURIComponent(options.projectId)}/uploads`,
    {
      relativePath: options.relativePath,
      sizeBytes: file.size,
      sha256: options.sha256,
      model: options.model || undefined,
      metadata: options.metadata,
    },
  );
  const uploadUrl = `/api/v1/uploads/${encodeURIComponent(session.uploadId)}`;
  let offset = session.receivedBytes;
  let failures = 0;
  const maxRetries = options.maxRetries ?? 8;
  try {
    while (offset < file.size) {
      signal?.throwIfAborted();
      try {
        const chunk = file.slice(offset, offset + session.chunkBytes);
        const result = await apiFetch<UploadChunkAnswer>(`${uploadUrl}?offset=${offset}`, {
          method: "PUT",
          body: chunk,
          headers: { "content-type": "application/octet-stream" },
          signal,
        });
        offset = result.receivedBytes;
        failures = 0;
        options.onProgress?.(offset);
      } catch (error) {
        if (signal?.aborted) throw error;
        const retryable = !(error instanceof ApiError) || error.status >= 500 || error.code === "offset_mismatch";
        if (!retryable || ++failures > maxRetries) throw error;
        await sleep(Math.min(10_000, 250 * 2 ** failures) * (0.5 + Math.random() / 2), signal);
        // Ask the server what arrived, and resume from there.
        const status = await apiFetch<UploadStatusAnswer>(uploadUrl, { signal });
        offset = status.receivedBytes;
      }
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
    const discarded = await fetch(uploadUrl, { method: "DELETE" }).then(
      (response) => response.ok,
      () => false,
    );
    throw new UploadCancelledError(offset, file.size, discarded);
  }
  return await postJson<VideoJson>(`${uploadUrl}/complete`, {});
}
