"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { FileMetadata } from "@/lib/import/metadata-file";
import { buttonClass } from "@/components/class-names";
import type { ClaimedFile } from "@/components/tasks/task-views";
import type { PickedFile } from "./collect-files";
import { ExistingVideosMetadata, metadataRows } from "./existing-videos-metadata";
import { ExtractionSettings, defaultExtractionSettings, type ExtractionSettingsValue } from "./extraction-settings";
import { ImportProgress } from "./import-progress";
import { foundGenerators, foundGeneratorsLine, type FoundGenerators } from "@/lib/import/found-generators";
import { addPickedFiles, RETRYABLE, taskImportPanels, type ImportItem } from "./import-item";
import { runImport, settleUnfinished, type ImportRun } from "./import-run";
import { ImportDropZone } from "./import-drop-zone";
import { ImportItemList } from "./import-item-list";

const NO_FILES: readonly ClaimedFile[] = [];

/** After an import with metadata or prompt lists: what they change in videos already in the project. */
interface LateMetadata {
  rows: ReturnType<typeof metadataRows>;
  promptLists: boolean;
  importedVideoIds: ReadonlySet<string>;
}

/** A re-render of the panel, at most every 150 ms: a 5,000-file import updates progress constantly. */
function useThrottledRefresh(): () => void {
  const [, setVersion] = useState(0);
  const pendingRender = useRef(false);
  return useCallback(() => {
    if (pendingRender.current) return;
    pendingRender.current = true;
    setTimeout(() => {
      pendingRender.current = false;
      setVersion((v) => v + 1);
    }, 150);
  }, []);
}

/** The generator model typed for the whole import (else read from each video's folder). */
function GeneratorModelField({ model, onModel }: { model: string; onModel: (model: string) => void }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium text-slate-700">Generator model</span>
      <input
        value={model}
        onChange={(e) => onModel(e.target.value)}
        placeholder="from the folder above the dimension if empty"
        className="rounded-md border border-slate-300 px-2.5 py-1.5 text-sm"
      />
    </label>
  );
}

/** The generators the import will record, read from the picked paths before anything uploads. */
function FoundGeneratorsNote({ generators, modelTyped }: { generators: FoundGenerators; modelTyped: boolean }) {
  return (
    <p className="text-sm text-slate-600" data-testid="import-generators">
      {foundGeneratorsLine(generators).replace(/^./, (first) => first.toUpperCase())}
      {modelTyped ? " (the model typed above)." : "."}
    </p>
  );
}

/** The import screen: files dropped, their settings, the upload's progress and what it changed. */
export function ImportPanel({ projectId }: { projectId: string }) {
  const items = useRef<ImportItem[]>([]);
  const [running, setRunning] = useState(false);
  // An import ran to its end (or was cancelled) since files were last added: its summary shows.
  const [finished, setFinished] = useState(false);
  const [model, setModel] = useState("");
  const [settings, setSettings] = useState<ExtractionSettingsValue>(defaultExtractionSettings);
  const abort = useRef<AbortController | null>(null);
  // Parsed metadata files by path key (as findMetadata expects), kept so a retry uploads with it too.
  const metadata = useRef(new Map<string, FileMetadata>());
  // The tasks' files dropped along (item sets: caption references, question sets…): each checked and imported
  // by its task's own section, after the videos. By panel id.
  const [claimedFiles, setClaimedFiles] = useState<Readonly<Record<string, readonly ClaimedFile[]>>>({});
  const [lateMetadata, setLateMetadata] = useState<LateMetadata | null>(null);

  const refresh = useThrottledRefresh();

  const addFiles = useCallback(
    async (picked: PickedFile[]) => {
      const claimed = await addPickedFiles(items.current, picked);
      setFinished(false);
      if (claimed.size)
        setClaimedFiles((old) => ({
          ...old,
          ...Object.fromEntries([...claimed].map(([id, files]) => [id, [...(old[id] ?? []), ...files]])),
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
    const run: ImportRun = {
      projectId,
      model,
      settings,
      items: items.current,
      metadata: metadata.current,
      signal: controller.signal,
      update,
    };
    try {
      await runImport(run);
    } finally {
      settleUnfinished(run);
      const late = lateMetadataOf(run);
      if (late) setLateMetadata(late);
      setRunning(false);
      setFinished(true);
      refresh();
    }
  }

  const list = items.current;
  const videoPaths = list.filter((i) => i.kind === "video").map((i) => i.relativePath);
  // Read from the paths as the import reads them, so the generators show before anything uploads.
  const generators = videoPaths.length ? foundGenerators(videoPaths, model) : null;

  return (
    <div className="flex flex-col gap-5">
      <ImportDropZone onFiles={(picked) => void addFiles(picked)} />

      <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
        <GeneratorModelField model={model} onModel={setModel} />
        <ExtractionSettings value={settings} onChange={setSettings} />
      </div>

      <ImportControls
        items={list}
        running={running}
        onStart={() => void start()}
        onCancel={() => abort.current?.abort()}
        onRetry={retry}
      />
      {generators && <FoundGeneratorsNote generators={generators} modelTyped={model.trim() !== ""} />}
      <NoPromptNotice count={list.filter((i) => i.noPrompt).length} />
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

      <ImportItemList projectId={projectId} items={list} />
    </div>
  );
}

/** What the finished run's metadata and stored lists may change in videos already there; null when nothing. */
function lateMetadataOf({ items, metadata, signal }: ImportRun): LateMetadata | null {
  const listsStored = items.some((i) => i.kind === "prompt-list" && i.state === "done");
  if (signal.aborted || (metadata.size === 0 && !listsStored)) return null;
  return {
    rows: metadataRows(metadata),
    promptLists: listsStored,
    importedVideoIds: new Set(
      items.flatMap((i) => (i.videoId && (i.state === "done" || i.state === "stored") ? [i.videoId] : [])),
    ),
  };
}

/** Start, Cancel and Retry, and the line counting the files by state. */
function ImportControls(props: {
  items: readonly ImportItem[];
  running: boolean;
  onStart: () => void;
  onCancel: () => void;
  onRetry: () => void;
}) {
  const { items, running } = props;
  const counts = countBy(items.map((i) => i.state));
  const queued = items.some((i) => i.state === "queued");
  const retryable = items.filter((i) => RETRYABLE.includes(i.state)).length;
  const noPrompt = items.filter((i) => i.noPrompt).length;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" className={buttonClass()} disabled={running || !queued} onClick={props.onStart}>
        Start import
      </button>
      <button type="button" className={buttonClass("danger")} disabled={!running} onClick={props.onCancel}>
        Cancel
      </button>
      {!running && retryable > 0 && (
        <button type="button" className={buttonClass("secondary")} data-testid="import-retry" onClick={props.onRetry}>
          Retry {retryable} unfinished {retryable === 1 ? "file" : "files"}
        </button>
      )}
      <span className="text-sm text-slate-600" data-testid="import-summary">
        {items.length} files · {counts.get("done") ?? 0} done · {counts.get("duplicate") ?? 0} duplicates ·{" "}
        {counts.get("error") ?? 0} errors · {counts.get("skipped") ?? 0} skipped
        {counts.get("stored") ? ` · ${counts.get("stored")} stored, waiting for frames` : ""}
        {counts.get("cancelled") ? ` · ${counts.get("cancelled")} cancelled, nothing stored` : ""}
        {noPrompt ? ` · no prompt found for ${noPrompt} ${noPrompt === 1 ? "file" : "files"}` : ""}
      </span>
    </div>
  );
}

function NoPromptNotice({ count }: { count: number }) {
  if (count === 0) return null;
  const one = count === 1;
  return (
    <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="import-no-prompt">
      No prompt found for {count} {one ? "file" : "files"}: {one ? "its name is" : "their names are"} not{" "}
      <code>&lt;prompt&gt;-&lt;index&gt;</code> and no metadata file or prompt list names {one ? "it" : "them"}.{" "}
      {one ? "It is" : "They are"} stored without a prompt, and the judge skips the steps that compare a video with its
      prompt.
    </p>
  );
}

function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
