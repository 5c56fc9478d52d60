// The steps of one import run on the Import page: prompt lists first (so the server restores full prompts and
// dimensions for the videos), then metadata files, then the videos two at a time (probe, hash, upload, extract frames),
// then a dry run of each stored list to say what it matched. Each step reports through `update`; the page re-renders.
import { FrameExtractor } from "@/lib/browser-extraction/frame-extractor";
import { ExtractionError } from "@/lib/browser-extraction/types";
import { countFileNames, findMetadata, parseMetadataFile, type FileMetadata } from "@/lib/import/metadata-file";
import { parseVideoPath } from "@/lib/import/parse-video-path";
import { ApiError, apiFetch } from "@/lib/api-client";
import { FINISHED_IMPORT_STATES, promptExcerpt } from "@/lib/import/import-summary";
import { extractAndUploadFrameSet } from "./extract-frame-set";
import { settingsToParameters, type ExtractionSettingsValue } from "./extraction-settings";
import { sha256OfFile, UploadCancelledError, uploadVideo, type VideoJson } from "./upload-video";
import type { ImportItem } from "./import-item";

const CONCURRENCY = 2;
const NOTHING_STORED = "Cancelled before upload; nothing stored.";
const STORED_WITHOUT_FRAMES =
  "Video stored; frames not extracted — waiting for frames (Extract pending, or Retry here).";
const NO_PROMPT = "no prompt found (the name is not <prompt>-<index>, and no metadata or prompt list names it)";

/** What one run works with: the page's items and parsed metadata, its settings, and how it reports progress. */
export interface ImportRun {
  projectId: string;
  model: string;
  settings: ExtractionSettingsValue;
  items: ImportItem[];
  /** Parsed metadata files by path key (as findMetadata expects), kept so a retry uploads with it too. */
  metadata: Map<string, FileMetadata>;
  signal: AbortSignal;
  update: (item: ImportItem, patch: Partial<ImportItem>) => void;
}

interface PromptListAnswer {
  /** The project's list with this name and content, when this one was not stored again. */
  duplicateOf?: string;
  entryCount: number;
  format: string;
  withAuxiliaryInfo: number;
  matchedVideos: number;
  unmatchedPrompts: { count: number; byDimension: Record<string, { count: number; first: string[] }> };
  unmatchedVideos: { count: number; first: string[] };
}

/** Runs every step of the import over the queued items; `settleUnfinished` runs after it, whatever happened. */
export async function runImport(run: ImportRun): Promise<void> {
  await storePromptLists(run);
  await readMetadataFiles(run);
  await importVideos(run);
  await reportPromptListMatches(run);
}

/** A list's request is not interrupted by Cancel: it is small, and its outcome is then known. */
async function storePromptLists({ projectId, items, signal, update }: ImportRun) {
  for (const item of items.filter((i) => i.kind === "prompt-list" && i.state === "queued")) {
    if (signal.aborted) break;
    const form = new FormData();
    form.set("file", item.file, item.relativePath.split("/").pop());
    try {
      const list = await apiFetch<PromptListAnswer>(`/api/v1/projects/${projectId}/prompt-lists`, {
        method: "POST",
        body: form,
      });
      update(item, { state: "done", progress: 1, message: promptListMessage(list) });
    } catch (error) {
      update(item, { state: "error", message: errorMessage(error) });
    }
  }
}

async function readMetadataFiles({ items, metadata, signal, update }: ImportRun) {
  for (const item of items.filter((i) => i.kind === "metadata" && i.state === "queued")) {
    if (signal.aborted) break;
    const parsed = parseMetadataFile(item.relativePath, await item.file.text());
    if (!parsed.ok) {
      update(item, { state: "error", message: `${item.relativePath}: ${parsed.error}` });
      continue;
    }
    for (const [name, value] of parsed.byPath) metadata.set(name, value);
    update(item, { state: "done", progress: 1, message: `Metadata for ${parsed.rowCount} files.` });
  }
}

async function importVideos(run: ImportRun) {
  const { items, model, signal, update } = run;
  const queue = items.filter((i) => i.kind === "video" && i.state === "queued");
  for (const item of queue) {
    const parsed = parseVideoPath(item.relativePath, { model: model || undefined });
    // macOS resource forks (._x.mp4, __MACOSX/) are not videos: skip them quietly.
    if (!parsed.ok)
      update(
        item,
        parsed.reason === "not_video"
          ? { state: "skipped", message: parsed.error }
          : { state: "error", message: parsed.error },
      );
  }
  const runnable = queue.filter((item) => item.state === "queued");
  const fileNames = countFileNames(items.filter((i) => i.kind === "video").map((i) => i.relativePath));
  const lanes = Array.from({ length: Math.min(CONCURRENCY, runnable.length) }, async () => {
    const extractor = new FrameExtractor();
    try {
      while (!signal.aborted) {
        const item = runnable.shift();
        if (!item) break;
        await importOne(run, item, extractor, findMetadata(run.metadata, item.relativePath, fileNames) ?? undefined);
      }
    } finally {
      extractor.terminate();
    }
  });
  await Promise.all(lanes);
}

/** What each stored list matched once the videos are in: a dry run of it against the project as it is now. */
async function reportPromptListMatches({ projectId, items, signal, update }: ImportRun) {
  for (const item of items.filter((i) => i.kind === "prompt-list" && i.state === "done")) {
    if (signal.aborted) break;
    const form = new FormData();
    form.set("file", item.file, item.relativePath.split("/").pop());
    try {
      const matched = await apiFetch<PromptListAnswer>(`/api/v1/projects/${projectId}/prompt-lists?dryRun=true`, {
        method: "POST",
        body: form,
      });
      update(item, { message: `${promptListMessage(matched)} ${unmatchedMessage(matched)}` });
    } catch {
      // The list is stored; only its match report is missing.
    }
  }
}

/**
 * After a run, however it ended. importOne settles every item it starts; this only catches one left mid-way by a
 * bug. On a cancel, the items still queued are marked cancelled.
 */
export function settleUnfinished({ items, signal, update }: ImportRun) {
  for (const item of items) {
    if (!FINISHED_IMPORT_STATES.includes(item.state) && item.state !== "queued") {
      update(
        item,
        item.videoId
          ? { state: "stored", message: STORED_WITHOUT_FRAMES }
          : { state: "cancelled", message: "Cancelled; whether the server stored it is unknown. Retry checks." },
      );
    }
  }
  if (signal.aborted)
    for (const item of items)
      if (item.state === "queued") update(item, { state: "cancelled", message: NOTHING_STORED });
}

async function importOne(run: ImportRun, item: ImportItem, extractor: FrameExtractor, metadata?: FileMetadata) {
  const { signal, update } = run;
  let video: VideoJson | undefined;
  try {
    update(item, { state: "probing", message: "Reading the video…", progress: 0.02 });
    item.probe ??= (await extractor.probe(item.file, { signal })).probe;
    if (!item.videoId) {
      video = await storeVideo(run, item, metadata);
      if (!video) return;
      update(item, { videoId: video.id, noPrompt: video.prompt === null });
      // The upload finished although Cancel was pressed meanwhile: the video is stored, so say so.
      signal.throwIfAborted();
    }
    update(item, { state: "extracting", progress: 0.7, message: "Extracting frames…" });
    const frameSet = await extractAndUploadFrameSet({
      extractor,
      videoId: item.videoId!,
      file: item.file,
      parameters: settingsToParameters(run.settings),
      signal,
      onProgress: (done, total) =>
        update(item, {
          progress: 0.7 + 0.28 * (done / Math.max(1, total)),
          message: `Extracting frames… ${done}/${total}`,
        }),
    });
    const prompt = video?.prompt ? ` · ${promptExcerpt(video.prompt)}` : item.noPrompt ? ` · ${NO_PROMPT}` : "";
    update(item, {
      state: "done",
      progress: 1,
      message: `${frameSet.keyFrames} key frames, ${frameSet.frames} frames (${frameSet.decoder})${prompt}`,
      prompt: video?.prompt ?? undefined,
    });
  } catch (error) {
    if (signal.aborted) {
      update(item, await cancelledOutcome(item, error));
      return;
    }
    update(item, { state: "error", message: errorMessage(error) });
    if (item.videoId) {
      await fetch(`/api/v1/videos/${item.videoId}/extraction-error`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: errorMessage(error).slice(0, 2000) }),
      }).catch(() => {});
    }
  }
}

/** Hashes and uploads one video; undefined when the project already holds it (the item then says so). */
async function storeVideo(
  { projectId, model, signal, update }: ImportRun,
  item: ImportItem,
  metadata: FileMetadata | undefined,
): Promise<VideoJson | undefined> {
  update(item, { state: "hashing", message: "Computing SHA-256…" });
  const sha256 = await sha256OfFile(
    item.file,
    (done) => update(item, { progress: 0.02 + 0.08 * (done / item.file.size) }),
    signal,
  );
  update(item, { state: "uploading", message: "Uploading…" });
  try {
    return await uploadVideo({
      projectId,
      file: item.file,
      relativePath: item.relativePath,
      sha256,
      model: model || undefined,
      metadata: metadata ? toVideoMetadata(metadata) : undefined,
      signal,
      onProgress: (sent) =>
        update(item, {
          progress: 0.1 + 0.6 * (sent / item.file.size),
          message: `Uploading… ${Math.round((100 * sent) / item.file.size)}%`,
        }),
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === "duplicate") {
      update(item, { state: "duplicate", progress: 1, message: error.message });
      return undefined;
    }
    throw error;
  }
}

/** What a cancel left of one file, asked of the server where the client cannot know it. */
async function cancelledOutcome(item: ImportItem, error: unknown): Promise<Partial<ImportItem>> {
  const noPrompt = item.noPrompt ? ` This video has ${NO_PROMPT}.` : "";
  if (!item.videoId)
    return {
      state: "cancelled",
      progress: 0,
      message: error instanceof UploadCancelledError ? error.message : NOTHING_STORED,
    };
  // The frames' upload may have reached the server before the cancel did.
  const stored = await apiFetch<VideoJson>(`/api/v1/videos/${encodeURIComponent(item.videoId)}`).catch(() => null);
  if (stored?.status === "ready")
    return {
      state: "done",
      progress: 1,
      message: `Video and frames stored (the frames arrived before the cancel).${noPrompt}`,
    };
  return { state: "stored", message: `${STORED_WITHOUT_FRAMES}${noPrompt}` };
}

/** A stored list: its prompts, format and auxiliary info, and what it gave the videos already there. */
function promptListMessage(list: PromptListAnswer): string {
  const info = list.withAuxiliaryInfo ? `, ${list.withAuxiliaryInfo} with auxiliary info` : "";
  const already = list.duplicateOf ? ", already in the project (not stored again)" : "";
  return `Prompt list: ${list.entryCount} prompts (${list.format}${info})${already}; it matches ${list.matchedVideos} video${list.matchedVideos === 1 ? "" : "s"} of the project.`;
}

/** The dry run's unmatched prompts (by dimension) and videos, in a sentence. */
function unmatchedMessage(list: PromptListAnswer): string {
  const byDimension = Object.entries(list.unmatchedPrompts.byDimension)
    .map(([dimension, d]) => `${dimension} ${d.count}`)
    .join(", ");
  const prompts = list.unmatchedPrompts.count
    ? `${list.unmatchedPrompts.count} of its prompts have no video (${byDimension})`
    : "every prompt has a video";
  const videos = list.unmatchedVideos.count
    ? `${list.unmatchedVideos.count} video${list.unmatchedVideos.count === 1 ? "" : "s"} match no prompt of it (${list.unmatchedVideos.first.slice(0, 3).join(", ")}${list.unmatchedVideos.count > 3 ? ", …" : ""})`
    : "every video matches a prompt";
  return `After the import: ${prompts}; ${videos}.`;
}

function toVideoMetadata(metadata: FileMetadata) {
  const { extra, ...fields } = metadata;
  return Object.keys(extra).length ? { ...fields, extra } : fields;
}

function errorMessage(error: unknown): string {
  if (error instanceof ExtractionError || error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
