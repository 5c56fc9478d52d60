// One video of a bulk import: read and checked locally (ffprobe), hashed, uploaded through a resumable upload
// session (resuming a journaled one), its frames extracted with native ffmpeg (or the ffmpeg.wasm core) and stored.
import { createHash } from "node:crypto";
import fs from "node:fs";
import type { FileMetadata } from "../import/metadata-file";
import { frameSetCountsLine } from "../frames/frame-set-parameters";
import type { FfmpegTools } from "./ffmpeg-tools";
import { messageOf, reasonOf, type FileOutcome } from "./import-outcome";
import { duplicateVideoId, refusalOf, type ImportTarget, type TargetVideo } from "./import-target";
import { extractFrameSetFromFile, inspectVideoFile, type InspectedVideo } from "./native-extraction";
import type { UploadJournal } from "./upload-journal";

const MAX_CHUNK_RETRIES = 8;
const NO_PROMPT = "no prompt found (the name is not <prompt>-<index>, and no metadata or prompt list names it)";

export interface LocalFile {
  absolutePath: string;
  relativePath: string;
  sizeBytes: number;
}

/** What every video of one import shares. */
export interface VideoImportContext {
  target: ImportTarget;
  /** The generator model (wins over a model folder in the path). */
  model?: string;
  /** Frame-set parameters (lib/frames/frame-set-parameters). */
  parameters: unknown;
  frameTools?: FfmpegTools;
  chunkBytes?: number;
  journal?: UploadJournal;
  signal?: AbortSignal;
  /** The same bytes twice in this run: the second is a duplicate of the first, without asking the server. */
  seen: Map<string, string>;
}

async function sha256OfFile(filePath: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function toVideoMetadata(metadata: FileMetadata) {
  const { extra, ...fields } = metadata;
  return Object.keys(extra).length ? { ...fields, extra } : fields;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The stored video of a file (uploaded now, or stored by an earlier run), or the outcome that ends it here. */
async function storeVideo(
  ctx: VideoImportContext,
  file: LocalFile,
  sha256: string,
  fileMetadata: FileMetadata | undefined,
): Promise<{ video: TargetVideo; resumed: boolean } | FileOutcome> {
  const base = { relativePath: file.relativePath, kind: "video" as const };
  try {
    const stored = await upload(ctx, file, sha256, fileMetadata);
    if (stored === "interrupted")
      return {
        ...base,
        status: "interrupted",
        message: "upload stopped part-way; run the import again to resume it from the bytes that arrived",
      };
    return stored;
  } catch (error) {
    const existing = duplicateVideoId(error);
    if (!existing) return { ...base, status: "failed", reason: reasonOf(error), message: messageOf(error) };
    let video: TargetVideo;
    try {
      video = await ctx.target.video(existing);
    } catch (lookup) {
      return { ...base, status: "failed", reason: reasonOf(lookup), message: messageOf(lookup) };
    }
    if (video.status === "ready") return { ...base, status: "duplicate", videoId: video.id, message: messageOf(error) };
    // Stored by an earlier run that stopped before its frames: finish it.
    return { video, resumed: true };
  }
}

/** Imports one video file: its outcome. */
export async function importVideo(
  ctx: VideoImportContext,
  file: LocalFile,
  fileMetadata: FileMetadata | undefined,
): Promise<FileOutcome> {
  const { target, signal } = ctx;
  const base = { relativePath: file.relativePath, kind: "video" as const };
  let inspected: InspectedVideo;
  let sha256: string;
  try {
    // Checked locally first, as the browser probes before uploading: a bad file sends no byte.
    inspected = await inspectVideoFile(file.absolutePath, undefined, ctx.frameTools);
    sha256 = await sha256OfFile(file.absolutePath);
  } catch (error) {
    return { ...base, status: "failed", reason: reasonOf(error), message: messageOf(error) };
  }
  const earlier = ctx.seen.get(sha256);
  if (earlier)
    return { ...base, status: "duplicate", message: `same bytes as ${earlier} in this import; not stored again` };
  ctx.seen.set(sha256, file.relativePath);

  const stored = await storeVideo(ctx, file, sha256, fileMetadata);
  if ("status" in stored) return stored;
  const { video, resumed } = stored;
  const noPrompt = video.prompt === null;
  if (signal?.aborted)
    return {
      ...base,
      status: "interrupted",
      videoId: video.id,
      resumed,
      noPrompt,
      message:
        "video stored, frames not extracted yet; run the import again (or npm run extract-worker) to extract them",
    };
  try {
    const frames = await extractFrameSetFromFile(file.absolutePath, ctx.parameters, {
      inspected,
      tools: ctx.frameTools,
    });
    await target.saveFrameSet(video.id, frames);
    const keyFrames = frames.manifest.filter((frame) => frame.isKeyFrame).length;
    return {
      ...base,
      status: "imported",
      videoId: video.id,
      resumed,
      noPrompt,
      keyFrames,
      frames: frames.manifest.length,
      message: `${frameSetCountsLine(frames.parameters, frames.manifest)} (${frames.decoder})${resumed ? " (finished from an earlier run)" : ""}${noPrompt ? ` · ${NO_PROMPT}` : ""}`,
    };
  } catch (error) {
    await target.recordExtractionError(video.id, messageOf(error)).catch(() => {});
    return {
      ...base,
      status: "failed",
      reason: reasonOf(error),
      videoId: video.id,
      message: `video stored, frames failed: ${messageOf(error)}`,
    };
  }
}

/** Uploads one file through a resumable session (resuming a journaled one), or says it was interrupted. */
async function upload(
  ctx: VideoImportContext,
  file: LocalFile,
  sha256: string,
  fileMetadata: FileMetadata | undefined,
): Promise<{ video: TargetVideo; resumed: boolean } | "interrupted"> {
  const { target, signal, journal } = ctx;
  let session: { uploadId: string; receivedBytes: number; chunkBytes: number } | null = null;
  let resumed = false;
  const journaled = journal?.get(sha256);
  if (journaled) {
    const status = await target.uploadStatus(journaled).catch(() => null);
    if (status?.status === "open") {
      session = { uploadId: journaled, receivedBytes: status.receivedBytes, chunkBytes: ctx.chunkBytes ?? 0 };
      resumed = status.receivedBytes > 0;
    } else await journal?.delete(sha256);
  }
  if (!session && signal?.aborted) return "interrupted";
  session ??= await target.startUpload({
    relativePath: file.relativePath,
    sizeBytes: file.sizeBytes,
    sha256,
    model: ctx.model || undefined,
    metadata: fileMetadata ? toVideoMetadata(fileMetadata) : undefined,
  });
  await journal?.set(sha256, session.uploadId);
  const chunkBytes = ctx.chunkBytes ?? (session.chunkBytes || 8 * 1024 * 1024);
  let offset = session.receivedBytes;
  let failures = 0;
  const handle = await fs.promises.open(file.absolutePath, "r");
  try {
    while (offset < file.sizeBytes) {
      // Stopped: the session stays open and journaled, so the next run resumes from `offset`.
      if (signal?.aborted) return "interrupted";
      const buffer = Buffer.alloc(Math.min(chunkBytes, file.sizeBytes - offset));
      await handle.read(buffer, 0, buffer.length, offset);
      try {
        offset = (await target.appendChunk(session.uploadId, offset, buffer)).receivedBytes;
        failures = 0;
      } catch (error) {
        const refusal = refusalOf(error);
        const retryable = !refusal || refusal.status >= 500 || refusal.code === "offset_mismatch";
        if (!retryable || ++failures > MAX_CHUNK_RETRIES) {
          // Nothing to resume from a refused upload: drop its bytes and its journal entry.
          await target.cancelUpload(session.uploadId).catch(() => {});
          await journal?.delete(sha256);
          throw error;
        }
        await sleep(Math.min(10_000, 250 * 2 ** failures) * (0.5 + Math.random() / 2));
        offset = (await target.uploadStatus(session.uploadId)).receivedBytes;
      }
    }
  } finally {
    await handle.close();
  }
  try {
    return { video: await target.completeUpload(session.uploadId), resumed };
  } finally {
    await journal?.delete(sha256);
  }
}
