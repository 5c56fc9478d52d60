// The headless bulk import (`npm run import`, `framejury import`): a folder tree imported as the Import
// page imports a dropped folder — prompt lists first, then metadata, then each video: read and checked
// locally (ffprobe), hashed, uploaded through a resumable upload session, its frames extracted with native
// ffmpeg (or the ffmpeg.wasm core in Node without it) and stored. The same lib/import code reads the names, prompt lists and metadata.
import fs from "node:fs";
import path from "node:path";
import { classifyPickedFile } from "../import/classify-file";
import { countFileNames, findMetadata, parseMetadataFile, type FileMetadata } from "../import/metadata-file";
import { parseVideoPath } from "../import/parse-video-path";
import { foundGenerators, type FoundGenerators } from "../import/found-generators";
import type { FfmpegTools } from "./ffmpeg-tools";
import { messageOf, reasonOf, type FailureReason, type FileOutcome, type FileStatus } from "./import-outcome";
import type { ImportTarget } from "./import-target";
import { importVideo, type LocalFile } from "./import-video";
import type { UploadJournal } from "./upload-journal";

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

type Classified = { file: LocalFile; kind: FileOutcome["kind"] };
type StoredList = { file: LocalFile; outcome: FileOutcome };

/** Stores the prompt lists (first, so the server restores full prompts, dimensions and auxiliary info for the videos). */
async function savePromptLists(
  kinds: readonly Classified[],
  target: ImportTarget,
  signal: AbortSignal | undefined,
  outcomes: FileOutcome[],
): Promise<StoredList[]> {
  const storedLists: StoredList[] = [];
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
  return storedLists;
}

/** Reads the metadata files: each file's metadata by its name. */
async function readMetadataFiles(
  kinds: readonly Classified[],
  outcomes: FileOutcome[],
): Promise<Map<string, FileMetadata>> {
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
  return metadata;
}

/** The video files whose names can be read; the others get their outcome here. */
function queueVideos(kinds: readonly Classified[], model: string | undefined, outcomes: FileOutcome[]): LocalFile[] {
  const queue: LocalFile[] = [];
  for (const { file } of kinds.filter((entry) => entry.kind === "video")) {
    const parsed = parseVideoPath(file.relativePath, { model: model || undefined });
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
  return queue;
}

/** What each stored list matches now the videos are in (a dry run, which stores nothing). */
async function reportListMatches(storedLists: readonly StoredList[], target: ImportTarget, signal?: AbortSignal) {
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
}

function summarise(outcomes: FileOutcome[], started: number): ImportSummary {
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

export async function importFolders(options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const { target, signal } = options;
  const files = await collectFiles(options.roots);
  const outcomes: FileOutcome[] = [];

  const kinds = files.map((file) => ({ file, kind: classifyPickedFile(file.relativePath) }));
  const videoPaths = kinds.filter((entry) => entry.kind === "video").map((entry) => entry.file.relativePath);
  options.onEvent?.({
    type: "found",
    videos: videoPaths.length,
    generators: foundGenerators(videoPaths, options.model),
  });
  const storedLists = await savePromptLists(kinds, target, signal, outcomes);
  const metadata = await readMetadataFiles(kinds, outcomes);
  for (const { file, kind } of kinds.filter((entry) => entry.kind === "other")) {
    outcomes.push({
      relativePath: file.relativePath,
      kind,
      status: "skipped",
      message: "not a video, prompt list or metadata file",
    });
  }
  const queue = queueVideos(kinds, options.model, outcomes);

  const videos = queue.length + outcomes.filter((outcome) => outcome.kind === "video").length;
  let videosDone = outcomes.filter((outcome) => outcome.kind === "video").length;
  options.onEvent?.({ type: "start", videos });
  for (const outcome of outcomes.filter((o) => o.kind === "video"))
    options.onEvent?.({ type: "file", outcome, videosDone, videos });

  const ctx = {
    target,
    model: options.model,
    parameters: options.parameters ?? DEFAULT_FRAME_SET_PARAMETERS,
    frameTools: options.frameTools,
    chunkBytes: options.chunkBytes,
    journal: options.journal,
    signal,
    seen: new Map<string, string>(),
  };
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
        finish(await importVideo(ctx, file, findMetadata(metadata, file.relativePath, fileNames) ?? undefined));
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
  await reportListMatches(storedLists, target, signal);
  return summarise(outcomes, started);
}
