// The headless bulk import (`npm run import`, `framejury import`): a folder tree imported as the Import
// page imports a dropped folder — prompt lists first, then metadata, then each video: read and checked
// locally (ffprobe), hashed, uploaded through a resumable upload session, its frames extracted with native
// ffmpeg (or the ffmpeg.wasm core in Node without it) and stored. The same lib/import code reads the names, prompt lists and metadata.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ExtractionError, type ExtractionErrorCode } from "../browser-extraction/types";
import { classifyPickedFile } from "../import/classify-file";
import { countFileNames, findMetadata, parseMetadataFile, type FileMetadata } from "../import/metadata-file";
import { parseVideoPath } from "../import/parse-video-path";
import { foundGenerators, type FoundGenerators } from "../import/found-generators";
import type { FfmpegTools } from "./ffmpeg-tools";
import { duplicateVideoId, refusalOf, type ImportTarget, type TargetVideo } from "./import-target";
import { extractFrameSetFromFile, inspectVideoFile, type InspectedVideo } from "./native-extraction";
import { frameSetCountsLine } from "../frames/frame-set-parameters";
import type { UploadJournal } from "./upload-journal";

/** Why a file was not imported, as the summary groups them. */
export type FailureReason =
  "corrupt" | "not_a_video" | "too_big" | "odd_name" | "audio_only" | "unsupported_codec" | "refused" | "error";

export type FileStatus = "imported" | "duplicate" | "failed" | "skipped" | "interrupted";

export interface FileOutcome {
  relativePath: string;
  kind: "video" | "prompt-list" | "metadata" | "other";
  status: FileStatus;
  reason?: FailureReason;
  message: string;
  videoId?: string;
  /** The video was stored by an earlier, interrupted run; this run extracted its frames. */
  resumed?: boolean;
  /** The stored video has no prompt (its name is not `<prompt>-<index>` and nothing named one). */
  noPrompt?: boolean;
  keyFrames?: number;
  frames?: number;
}

export interface ImportSummary {
  /** Every file found: videos, prompt lists, metadata files and the rest. */
  files: FileOutcome[];
  /** Videos (files with a video extension) by status. */
  counts: Record<FileStatus, number>;
  /** Failed videos by reason. */
  failedByReason: Partial<Record<FailureReason, number>>;
  /** Videos this run took up where an earlier run stopped (stored without frames, or a partial upload). */
  resumed: number;
  noPrompt: number;
  elapsedMs: number;
}

/** `found` comes before anything uploads: the video files and the generators their paths name (or the --model given). */
export type ImportEvent =
  | { type: "found"; videos: number; generators: FoundGenerators }
  | { type: "start"; videos: number }
  | { type: "file"; outcome: FileOutcome; videosDone: number; videos: number };

export interface ImportOptions {
  /** Folders (or single files) to import; a folder's own name starts its files' paths, as when dropped. */
  roots: string[];
  target: ImportTarget;
  /** The generator model (wins over a model folder in the path), as the Import page's form field. */
  model?: string;
  /** Frame-set parameters (lib/frames/frame-set-parameters); the Import page's defaults when absent. */
  parameters?: unknown;
  /** Videos worked on at once (the Import page uses 2). */
  concurrency?: number;
  /** Which ffmpeg probes and extracts (default: FRAMEJURY_FFMPEG's choice). */
  frameTools?: FfmpegTools;
  /** Upload chunk size; the server's (8 MiB) when absent. */
  chunkBytes?: number;
  /** Remembers open uploads by SHA-256, so an interrupted run resumes a partial upload from its last byte. */
  journal?: UploadJournal;
  /** Stops taking new files; files under way stop at their next step (a partial upload stays resumable). */
  signal?: AbortSignal;
  onEvent?: (event: ImportEvent) => void;
}

export const DEFAULT_FRAME_SET_PARAMETERS = { mode: "density-peaks" } as const;
const DEFAULT_CONCURRENCY = 2;
const MAX_CHUNK_RETRIES = 8;
const NO_PROMPT = "no prompt found (the name is not <prompt>-<index>, and no metadata or prompt list names it)";

interface LocalFile {
  absolutePath: string;
  relativePath: string;
  sizeBytes: number;
}

/** Every file under the roots, with the path it would have inside a dropped folder, sorted by that path. */
export async function collectFiles(roots: string[]): Promise<LocalFile[]> {
  const files: LocalFile[] = [];
  for (const root of roots) {
    const absoluteRoot = path.resolve(root);
    const stat = await fs.promises.stat(absoluteRoot);
    if (stat.isFile()) {
      files.push({ absolutePath: absoluteRoot, relativePath: path.basename(absoluteRoot), sizeBytes: stat.size });
      continue;
    }
    const base = path.basename(absoluteRoot);
    const walk = async (dir: string) => {
      for (const entry of await fs.promises.readdir(dir, { withFileTypes: true })) {
        const absolutePath = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(absolutePath);
        // A symbolic link to a file is read like the file (links to folders are not followed: no cycles).
        else if (
          entry.isFile() ||
          (entry.isSymbolicLink() && (await fs.promises.stat(absolutePath).catch(() => null))?.isFile())
        ) {
          const relativePath = [base, ...path.relative(absoluteRoot, absolutePath).split(path.sep)].join("/");
          files.push({ absolutePath, relativePath, sizeBytes: (await fs.promises.stat(absolutePath)).size });
        }
      }
    };
    await walk(absoluteRoot);
  }
  return files.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
}

async function sha256OfFile(filePath: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const EXTRACTION_REASONS: Partial<Record<ExtractionErrorCode, FailureReason>> = {
  corrupt: "corrupt",
  not_a_video: "not_a_video",
  audio_only: "audio_only",
  unsupported_codec: "unsupported_codec",
};

/** The summary's reason for a refusal or an extraction error. */
function reasonOf(error: unknown): FailureReason {
  if (error instanceof ExtractionError) return EXTRACTION_REASONS[error.code] ?? "error";
  const refusal = refusalOf(error);
  if (!refusal) return "error";
  if (refusal.status === 413) return "too_big";
  if (refusal.code === "empty" || refusal.code === "corrupt") return "corrupt";
  if (refusal.code === "not_a_video" || refusal.code === "audio_only") return refusal.code;
  return "refused";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function toVideoMetadata(metadata: FileMetadata) {
  const { extra, ...fields } = metadata;
  return Object.keys(extra).length ? { ...fields, extra } : fields;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function importFolders(options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const { target, signal } = options;
  const parameters = options.parameters ?? DEFAULT_FRAME_SET_PARAMETERS;
  const files = await collectFiles(options.roots);
  const outcomes: FileOutcome[] = [];

  const kinds = files.map((file) => ({ file, kind: classifyPickedFile(file.relativePath) }));
  const videoPaths = kinds.filter((entry) => entry.kind === "video").map((entry) => entry.file.relativePath);
  options.onEvent?.({
    type: "found",
    videos: videoPaths.length,
    generators: foundGenerators(videoPaths, options.model),
  });
  // Prompt lists first, so the server restores full prompts, dimensions and auxiliary info for the videos.
  const storedLists: { file: LocalFile; outcome: FileOutcome }[] = [];
  for (const { file, kind } of kinds.filter((entry) => entry.kind === "prompt-list")) {
    if (signal?.aborted) break;
    try {
      const list = await target.savePromptList(
        path.basename(file.absolutePath),
        await fs.promises.readFile(file.absolutePath, "utf8"),
      );
      const info = list.withAuxiliaryInfo ? `, ${list.withAuxiliaryInfo} with auxiliary info` : "";
      const stored = `prompt list: ${list.entryCount} prompts (${list.format}${info})`;
      const outcome: FileOutcome = list.duplicateOf
        ? {
            relativePath: file.relativePath,
            kind,
            status: "duplicate",
            message: `${stored}, already in the project (not stored again)`,
          }
        : { relativePath: file.relativePath, kind, status: "imported", message: stored };
      outcomes.push(outcome);
      storedLists.push({ file, outcome });
    } catch (error) {
      outcomes.push({
        relativePath: file.relativePath,
        kind,
        status: "failed",
        reason: reasonOf(error),
        message: messageOf(error),
      });
    }
  }
  const metadata = new Map<string, FileMetadata>();
  for (const { file, kind } of kinds.filter((entry) => entry.kind === "metadata")) {
    const parsed = parseMetadataFile(file.relativePath, await fs.promises.readFile(file.absolutePath, "utf8"));
    if (!parsed.ok) {
      outcomes.push({
        relativePath: file.relativePath,
        kind,
        status: "failed",
        reason: "refused",
        message: `${file.relativePath}: ${parsed.error}`,
      });
      continue;
    }
    for (const [name, value] of parsed.byPath) metadata.set(name, value);
    outcomes.push({
      relativePath: file.relativePath,
      kind,
      status: "imported",
      message: `metadata for ${parsed.rowCount} files`,
    });
  }
  for (const { file, kind } of kinds.filter((entry) => entry.kind === "other")) {
    outcomes.push({
      relativePath: file.relativePath,
      kind,
      status: "skipped",
      message: "not a video, prompt list or metadata file",
    });
  }

  const queue: LocalFile[] = [];
  for (const { file } of kinds.filter((entry) => entry.kind === "video")) {
    const parsed = parseVideoPath(file.relativePath, { model: options.model || undefined });
    if (parsed.ok) queue.push(file);
    // macOS resource forks (._x.mp4, __MACOSX/) are not videos: skipped quietly, as on the Import page.
    else if (parsed.reason === "not_video")
      outcomes.push({ relativePath: file.relativePath, kind: "video", status: "skipped", message: parsed.error });
    else
      outcomes.push({
        relativePath: file.relativePath,
        kind: "video",
        status: "failed",
        reason: "odd_name",
        message: parsed.error,
      });
  }

  const videos = queue.length + outcomes.filter((outcome) => outcome.kind === "video").length;
  let videosDone = outcomes.filter((outcome) => outcome.kind === "video").length;
  options.onEvent?.({ type: "start", videos });
  for (const outcome of outcomes.filter((o) => o.kind === "video"))
    options.onEvent?.({ type: "file", outcome, videosDone, videos });

  // The same bytes twice in this run: the second is a duplicate of the first, without asking the server.
  const seen = new Map<string, string>();
  const finish = (outcome: FileOutcome) => {
    outcomes.push(outcome);
    videosDone += 1;
    options.onEvent?.({ type: "file", outcome, videosDone, videos });
  };
  const fileNames = countFileNames(queue.map((file) => file.relativePath));
  const pending = [...queue];
  const lanes = Array.from(
    { length: Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, pending.length)) },
    async () => {
      while (!signal?.aborted) {
        const file = pending.shift();
        if (!file) break;
        finish(await importVideo(file, findMetadata(metadata, file.relativePath, fileNames) ?? undefined));
      }
    },
  );
  await Promise.all(lanes);
  for (const file of pending)
    outcomes.push({
      relativePath: file.relativePath,
      kind: "video",
      status: "interrupted",
      message: "not started: the import was stopped; run it again to import it",
    });
  // What each stored list matches now the videos are in (a dry run, which stores nothing).
  for (const { file, outcome } of storedLists) {
    if (signal?.aborted) break;
    try {
      const matched = await target.savePromptList(
        path.basename(file.absolutePath),
        await fs.promises.readFile(file.absolutePath, "utf8"),
        { dryRun: true },
      );
      outcome.message += `; ${matched.matchedVideos} videos match it, ${matched.unmatchedPrompts.count} of its prompts have no video, ${matched.unmatchedVideos.count} videos match no prompt of it`;
    } catch {
      // The list is stored; only its match report is missing.
    }
  }

  async function importVideo(file: LocalFile, fileMetadata: FileMetadata | undefined): Promise<FileOutcome> {
    const base = { relativePath: file.relativePath, kind: "video" as const };
    let inspected: InspectedVideo;
    let sha256: string;
    try {
      // Checked locally first, as the browser probes before uploading: a bad file sends no byte.
      inspected = await inspectVideoFile(file.absolutePath, undefined, options.frameTools);
      sha256 = await sha256OfFile(file.absolutePath);
    } catch (error) {
      return { ...base, status: "failed", reason: reasonOf(error), message: messageOf(error) };
    }
    const earlier = seen.get(sha256);
    if (earlier)
      return { ...base, status: "duplicate", message: `same bytes as ${earlier} in this import; not stored again` };
    seen.set(sha256, file.relativePath);

    let video: TargetVideo;
    let resumed = false;
    try {
      const stored = await upload(file, sha256, fileMetadata);
      if (stored === "interrupted")
        return {
          ...base,
          status: "interrupted",
          message: "upload stopped part-way; run the import again to resume it from the bytes that arrived",
        };
      video = stored.video;
      resumed = stored.resumed;
    } catch (error) {
      const existing = duplicateVideoId(error);
      if (!existing) return { ...base, status: "failed", reason: reasonOf(error), message: messageOf(error) };
      try {
        video = await target.video(existing);
      } catch (lookup) {
        return { ...base, status: "failed", reason: reasonOf(lookup), message: messageOf(lookup) };
      }
      if (video.status === "ready")
        return { ...base, status: "duplicate", videoId: video.id, message: messageOf(error) };
      // Stored by an earlier run that stopped before its frames: finish it.
      resumed = true;
    }
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
      const frames = await extractFrameSetFromFile(file.absolutePath, parameters, {
        inspected,
        tools: options.frameTools,
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
    file: LocalFile,
    sha256: string,
    fileMetadata: FileMetadata | undefined,
  ): Promise<{ video: TargetVideo; resumed: boolean } | "interrupted"> {
    let session: { uploadId: string; receivedBytes: number; chunkBytes: number } | null = null;
    let resumed = false;
    const journaled = options.journal?.get(sha256);
    if (journaled) {
      const status = await target.uploadStatus(journaled).catch(() => null);
      if (status?.status === "open") {
        session = { uploadId: journaled, receivedBytes: status.receivedBytes, chunkBytes: options.chunkBytes ?? 0 };
        resumed = status.receivedBytes > 0;
      } else await options.journal?.delete(sha256);
    }
    if (!session && signal?.aborted) return "interrupted";
    session ??= await target.startUpload({
      relativePath: file.relativePath,
      sizeBytes: file.sizeBytes,
      sha256,
      model: options.model || undefined,
      metadata: fileMetadata ? toVideoMetadata(fileMetadata) : undefined,
    });
    await options.journal?.set(sha256, session.uploadId);
    const chunkBytes = options.chunkBytes ?? (session.chunkBytes || 8 * 1024 * 1024);
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
            await options.journal?.delete(sha256);
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
      await options.journal?.delete(sha256);
    }
  }

  const counts: Record<FileStatus, number> = { imported: 0, duplicate: 0, failed: 0, skipped: 0, interrupted: 0 };
  const failedByReason: Partial<Record<FailureReason, number>> = {};
  for (const outcome of outcomes.filter((o) => o.kind === "video")) {
    counts[outcome.status] += 1;
    if (outcome.reason) failedByReason[outcome.reason] = (failedByReason[outcome.reason] ?? 0) + 1;
  }
  return {
    files: outcomes,
    counts,
    failedByReason,
    resumed: outcomes.filter((outcome) => outcome.resumed).length,
    noPrompt: outcomes.filter((outcome) => outcome.noPrompt).length,
    elapsedMs: performance.now() - started,
  };
}
