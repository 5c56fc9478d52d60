"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { FrameExtractor } from "@/lib/browser-extraction/frame-extractor";
import { ExtractionError, type VideoProbe } from "@/lib/browser-extraction/types";
import { countFileNames, findMetadata, parseMetadataFile, type FileMetadata } from "@/lib/import/metadata-file";
import { parseVideoPath } from "@/lib/import/parse-video-path";
import { buttonClass } from "@/components/class-names";
import type { ClaimedFile } from "@/components/tasks/task-views";
import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";
import { ApiError, apiFetch } from "@/lib/api-client";
import { classifyPickedFile } from "@/lib/import/classify-file";
import { filesFromDrop, filesFromInput, type PickedFile } from "./collect-files";
import { ExistingVideosMetadata, metadataRows } from "./existing-videos-metadata";
import { extractAndUploadFrameSet } from "./extract-frame-set";
import {
  ExtractionSettings,
  defaultExtractionSettings,
  settingsToParameters,
  type ExtractionSettingsValue,
} from "./extraction-settings";
import { sha256OfFile, UploadCancelledError, uploadVideo, type VideoJson } from "./upload-video";
import { ImportProgress } from "./import-progress";
import { FINISHED_IMPORT_STATES, promptExcerpt, type ImportItemState } from "@/lib/import/import-summary";
import { foundGenerators, foundGeneratorsLine } from "@/lib/import/found-generators";

interface ImportItem {
  key: string;
  file: File;
  relativePath: string;
  kind: ReturnType<typeof classifyPickedFile>;
  state: ImportItemState;
  message: string;
  progress: number;
  /** Set once the server stored the video: a retry then only extracts its frames. */
  videoId?: string;
  probe?: VideoProbe;
  /** The stored video has no prompt: its name is not `<prompt>-<index>` and no metadata or prompt list named one. */
  noPrompt?: boolean;
  /** The stored video's whole prompt, shown on hovering its message (which quotes at most its first 80 characters). */
  prompt?: string;
}

const CONCURRENCY = 2;
const FINISHED = FINISHED_IMPORT_STATES;
/** What a cancel leaves unfinished; Retry takes these up again (a stored video only needs its frames). */
const RETRYABLE: ImportItemState[] = ["cancelled", "stored"];
const NOTHING_STORED = "Cancelled before upload; nothing stored.";
const STORED_WITHOUT_FRAMES =
  "Video stored; frames not extracted — waiting for frames (Extract pending, or Retry here).";
const NO_PROMPT = "no prompt found (the name is not <prompt>-<index>, and no metadata or prompt list names it)";

const NO_FILES: readonly ClaimedFile[] = [];

/** The registered tasks' Import page sections, in registry order. */
const taskImportPanels = () => GENERATED_TASK_VIEWS.flatMap((views) => views.importPanels ?? []);

/** "a, b and c". */
const alongWith = (parts: readonly string[]) =>
  parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;

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

export function ImportPanel({ projectId }: { projectId: string }) {
  const items = useRef<ImportItem[]>([]);
  const [, setVersion] = useState(0);
  const [running, setRunning] = useState(false);
  // An import ran to its end (or was cancelled) since files were last added: its summary shows.
  const [finished, setFinished] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [model, setModel] = useState("");
  const [settings, setSettings] = useState<ExtractionSettingsValue>(defaultExtractionSettings);
  const abort = useRef<AbortController | null>(null);
  const pendingRender = useRef(false);
  // Parsed metadata files by path key (as findMetadata expects), kept so a retry uploads with it too.
  const metadata = useRef(new Map<string, FileMetadata>());
  // The tasks' files dropped along (item sets: caption references, question sets…): each checked and imported
  // by its task's own section, after the videos. By panel id.
  const [claimedFiles, setClaimedFiles] = useState<Readonly<Record<string, readonly ClaimedFile[]>>>({});
  // After an import with metadata or prompt lists: what they change in videos already in the project.
  const [lateMetadata, setLateMetadata] = useState<{
    rows: ReturnType<typeof metadataRows>;
    promptLists: boolean;
    importedVideoIds: ReadonlySet<string>;
  } | null>(null);

  // Re-render at most every 150 ms: a 5,000-file import updates progress constantly.
  const refresh = useCallback(() => {
    if (pendingRender.current) return;
    pendingRender.current = true;
    setTimeout(() => {
      pendingRender.current = false;
      setVersion((v) => v + 1);
    }, 150);
  }, []);

  const addFiles = useCallback(
    async (picked: PickedFile[]) => {
      const known = new Set(items.current.map((item) => item.relativePath));
      const claimed: Record<string, ClaimedFile[]> = {};
      for (const { file, relativePath } of picked) {
        if (known.has(relativePath)) continue;
        known.add(relativePath);
        const kind = classifyPickedFile(relativePath);
        const candidates =
          kind === "other" ? taskImportPanels().filter((panel) => panel.fileNames.test(relativePath)) : [];
        if (candidates.length) {
          const head = await file.slice(0, Math.max(...candidates.map((panel) => panel.sniffBytes))).text();
          let claim: unknown = null;
          const panel = candidates.find((candidate) => (claim = candidate.claim(relativePath, head)) !== null);
          if (panel) {
            (claimed[panel.id] ??= []).push({ picked: { file, relativePath }, claim });
            continue;
          }
        }
        items.current.push({
          key: `${relativePath}#${items.current.length}`,
          file,
          relativePath,
          kind,
          state: kind === "other" ? "skipped" : "queued",
          message: kind === "other" ? "Skipped: not a video, prompt list or metadata file." : "",
          progress: 0,
        });
      }
      setFinished(false);
      const panelIds = Object.keys(claimed).filter((id) => claimed[id]!.length > 0);
      if (panelIds.length)
        setClaimedFiles((old) => ({
          ...old,
          ...Object.fromEntries(panelIds.map((id) => [id, [...(old[id] ?? []), ...claimed[id]!]])),
        }));
      refresh();
    },
    [refresh],
  );

  useEffect(() => () => abort.current?.abort(), []);

  const update = (item: ImportItem, patch: Partial<ImportItem>) => {
    Object.assign(item, patch);
    refresh();
  };

  function retry() {
    for (const item of items.current)
      if (RETRYABLE.includes(item.state)) update(item, { state: "queued", message: "", progress: 0 });
    void start();
  }

  async function start() {
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setFinished(false);
    const signal = controller.signal;
    try {
      // Prompt lists first, so the server restores full prompts and dimensions for the videos. A
      // list's request is not interrupted by Cancel: it is small, and its outcome is then known.
      for (const item of items.current.filter((i) => i.kind === "prompt-list" && i.state === "queued")) {
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
      for (const item of items.current.filter((i) => i.kind === "metadata" && i.state === "queued")) {
        if (signal.aborted) break;
        const parsed = parseMetadataFile(item.relativePath, await item.file.text());
        if (!parsed.ok) {
          update(item, { state: "error", message: `${item.relativePath}: ${parsed.error}` });
          continue;
        }
        for (const [name, value] of parsed.byPath) metadata.current.set(name, value);
        update(item, { state: "done", progress: 1, message: `Metadata for ${parsed.rowCount} files.` });
      }

      const queue = items.current.filter((i) => i.kind === "video" && i.state === "queued");
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
      const fileNames = countFileNames(items.current.filter((i) => i.kind === "video").map((i) => i.relativePath));
      const lanes = Array.from({ length: Math.min(CONCURRENCY, runnable.length) }, async () => {
        const extractor = new FrameExtractor();
        try {
          while (!signal.aborted) {
            const item = runnable.shift();
            if (!item) break;
            await importOne(
              item,
              extractor,
              findMetadata(metadata.current, item.relativePath, fileNames) ?? undefined,
              signal,
            );
          }
        } finally {
          extractor.terminate();
        }
      });
      await Promise.all(lanes);
      // What each stored list matched once the videos are in: a dry run of it against the project as it is now.
      for (const item of items.current.filter((i) => i.kind === "prompt-list" && i.state === "done")) {
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
    } finally {
      // importOne settles every item it starts; this only catches one left mid-way by a bug.
      for (const item of items.current) {
        if (!FINISHED.includes(item.state) && item.state !== "queued") {
          update(
            item,
            item.videoId
              ? { state: "stored", message: STORED_WITHOUT_FRAMES }
              : { state: "cancelled", message: "Cancelled; whether the server stored it is unknown. Retry checks." },
          );
        }
      }
      if (signal.aborted)
        for (const item of items.current)
          if (item.state === "queued") update(item, { state: "cancelled", message: NOTHING_STORED });
      const listsStored = items.current.some((i) => i.kind === "prompt-list" && i.state === "done");
      if (!signal.aborted && (metadata.current.size > 0 || listsStored))
        setLateMetadata({
          rows: metadataRows(metadata.current),
          promptLists: listsStored,
          importedVideoIds: new Set(
            items.current.flatMap((i) =>
              i.videoId && (i.state === "done" || i.state === "stored") ? [i.videoId] : [],
            ),
          ),
        });
      setRunning(false);
      setFinished(true);
      refresh();
    }
  }

  /** A stored list: its prompts, format and auxiliary info, and what it gave the videos already there. */
  function promptListMessage(list: PromptListAnswer): string {
    const info = list.withAuxiliaryInfo ? `, ${list.withAuxiliaryInfo} with auxiliary info` : "";
    const already = list.duplicateOf ? ", already in the project (not stored again)" : "";
    return `Prompt list: ${list.entryCount} prompts (${list.format}${info})${already}; it matches ${list.matchedVideos} video${list.matchedVideos === 1 ? "" : "s"} of the project.`;
  }

  async function importOne(
    item: ImportItem,
    extractor: FrameExtractor,
    metadata: FileMetadata | undefined,
    signal: AbortSignal,
  ) {
    let video: VideoJson | undefined;
    try {
      update(item, { state: "probing", message: "Reading the video…", progress: 0.02 });
      item.probe ??= (await extractor.probe(item.file, { signal })).probe;
      if (!item.videoId) {
        update(item, { state: "hashing", message: "Computing SHA-256…" });
        const sha256 = await sha256OfFile(
          item.file,
          (done) => update(item, { progress: 0.02 + 0.08 * (done / item.file.size) }),
          signal,
        );
        update(item, { state: "uploading", message: "Uploading…" });
        try {
          video = await uploadVideo({
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
            return;
          }
          throw error;
        }
        update(item, { videoId: video.id, noPrompt: video.prompt === null });
        // The upload finished although Cancel was pressed meanwhile: the video is stored, so say so.
        signal.throwIfAborted();
      }
      update(item, { state: "extracting", progress: 0.7, message: "Extracting frames…" });
      const frameSet = await extractAndUploadFrameSet({
        extractor,
        videoId: item.videoId!,
        file: item.file,
        parameters: settingsToParameters(settings),
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

  const list = items.current;
  const counts = countBy(list.map((i) => i.state));
  const queued = list.some((i) => i.state === "queued");
  const retryable = list.filter((i) => RETRYABLE.includes(i.state)).length;
  const noPrompt = list.filter((i) => i.noPrompt).length;
  const videoPaths = list.filter((i) => i.kind === "video").map((i) => i.relativePath);
  // Read from the paths as the import reads them, so the generators show before anything uploads.
  const generators = videoPaths.length ? foundGenerators(videoPaths, model) : null;

  return (
    <div className="flex flex-col gap-5">
      <div
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={async (event) => {
          event.preventDefault();
          setDragging(false);
          void addFiles(await filesFromDrop(event.dataTransfer));
        }}
        className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-8 text-center ${dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-white"}`}
      >
        <p className="font-medium text-slate-700">Drop video files or whole folders here</p>
        <p className="text-sm text-slate-500">
          mp4, webm, mov, m4v, mkv · VBench-2.0 layout <code>generator/Dimension/prompt-index.mp4</code> or flat ·
          prompt lists (<code>VBench2_full_info.json</code>, <code>meta_info/Dimension.json</code>,{" "}
          <code>VBench2_full_text_info.json</code>, <code>VBench_full_info.json</code>, txt/csv/json/jsonl in a{" "}
          <code>prompt</code> or <code>prompts</code> folder or named <code>*prompt*</code>),{" "}
          {alongWith([
            "a metadata csv/jsonl (named *meta*)",
            ...taskImportPanels().flatMap((panel) => (panel.description ? [panel.description] : [])),
          ])}{" "}
          may come along.
        </p>
        <div className="flex gap-2">
          <label className={buttonClass("secondary")}>
            Choose files
            <input
              type="file"
              multiple
              className="sr-only"
              data-testid="file-input"
              onChange={(e) => void addFiles(filesFromInput(e.target.files))}
            />
          </label>
          <label className={buttonClass("secondary")}>
            Choose a folder
            <input
              type="file"
              multiple
              className="sr-only"
              data-testid="folder-input"
              // @ts-expect-error non-standard but supported by every current browser
              webkitdirectory=""
              onChange={(e) => void addFiles(filesFromInput(e.target.files))}
            />
          </label>
        </div>
      </div>

      <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">Generator model</span>
          <input
            value={model}
            onChange={(e) => setModel(e.target.value)}
            placeholder="from the folder above the dimension if empty"
            className="rounded-md border border-slate-300 px-2.5 py-1.5 text-sm"
          />
        </label>
        <ExtractionSettings value={settings} onChange={setSettings} />
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className={buttonClass()} disabled={running || !queued} onClick={() => void start()}>
          Start import
        </button>
        <button
          type="button"
          className={buttonClass("danger")}
          disabled={!running}
          onClick={() => abort.current?.abort()}
        >
          Cancel
        </button>
        {!running && retryable > 0 && (
          <button type="button" className={buttonClass("secondary")} data-testid="import-retry" onClick={retry}>
            Retry {retryable} unfinished {retryable === 1 ? "file" : "files"}
          </button>
        )}
        <span className="text-sm text-slate-600" data-testid="import-summary">
          {list.length} files · {counts.done ?? 0} done · {counts.duplicate ?? 0} duplicates · {counts.error ?? 0}{" "}
          errors · {counts.skipped ?? 0} skipped
          {counts.stored ? ` · ${counts.stored} stored, waiting for frames` : ""}
          {counts.cancelled ? ` · ${counts.cancelled} cancelled, nothing stored` : ""}
          {noPrompt ? ` · no prompt found for ${noPrompt} ${noPrompt === 1 ? "file" : "files"}` : ""}
        </span>
      </div>
      {generators && (
        <p className="text-sm text-slate-600" data-testid="import-generators">
          {foundGeneratorsLine(generators).replace(/^./, (first) => first.toUpperCase())}
          {model.trim() ? " (the model typed above)." : "."}
        </p>
      )}
      {noPrompt > 0 && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="import-no-prompt">
          No prompt found for {noPrompt} {noPrompt === 1 ? "file" : "files"}:{" "}
          {noPrompt === 1 ? "its name is" : "their names are"} not <code>&lt;prompt&gt;-&lt;index&gt;</code> and no
          metadata file or prompt list names {noPrompt === 1 ? "it" : "them"}. {noPrompt === 1 ? "It is" : "They are"}{" "}
          stored without a prompt, and the judge skips the steps that compare a video with its prompt.
        </p>
      )}
      <ImportProgress items={list} running={running} finished={finished} />

      {lateMetadata && (
        <ExistingVideosMetadata
          projectId={projectId}
          rows={lateMetadata.rows}
          promptLists={lateMetadata.promptLists}
          importedVideoIds={lateMetadata.importedVideoIds}
        />
      )}
      {taskImportPanels().map(({ id, Panel }) => (
        <Panel key={id} projectId={projectId} files={claimedFiles[id] ?? NO_FILES} />
      ))}

      <ul
        className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm"
        data-testid="import-items"
      >
        {list.slice(0, 1000).map((item) => (
          <li
            key={item.key}
            className="flex flex-col gap-1 px-3 py-2"
            data-testid="import-item"
            data-state={item.state}
            data-path={item.relativePath}
          >
            <div className="flex items-center gap-3">
              <span className="min-w-0 flex-1 truncate font-mono text-xs" title={item.relativePath}>
                {item.relativePath}
              </span>
              <span className={`rounded px-1.5 py-0.5 text-xs ${stateClass(item.state)}`}>{item.state}</span>
              {item.videoId && (item.state === "done" || item.state === "stored") && (
                <a className="text-xs text-indigo-700 underline" href={`/projects/${projectId}/videos/${item.videoId}`}>
                  open
                </a>
              )}
            </div>
            {!FINISHED.includes(item.state) && item.state !== "queued" && (
              <div className="h-1 w-full overflow-hidden rounded bg-slate-100">
                <div className="h-full bg-indigo-400" style={{ width: `${item.progress * 100}%` }} />
              </div>
            )}
            {item.message && (
              <span
                className={`text-xs ${item.state === "error" ? "text-red-700" : "text-slate-500"}`}
                data-testid="import-item-message"
                title={item.prompt}
              >
                {item.message}
              </span>
            )}
          </li>
        ))}
        {list.length > 1000 && (
          <li className="px-3 py-2 text-xs text-slate-500">…and {list.length - 1000} more files (counted above).</li>
        )}
      </ul>
    </div>
  );
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

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function stateClass(state: ImportItemState): string {
  if (state === "done") return "bg-emerald-100 text-emerald-800";
  if (state === "error") return "bg-red-100 text-red-800";
  if (state === "duplicate" || state === "stored") return "bg-amber-100 text-amber-800";
  if (state === "skipped" || state === "cancelled") return "bg-slate-100 text-slate-600";
  return "bg-indigo-100 text-indigo-800";
}
