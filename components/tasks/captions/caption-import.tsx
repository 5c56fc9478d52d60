"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useRef, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch } from "@/lib/api-client";
import type { PickedFile } from "@/components/import/collect-files";
import {
  fileNameOf,
  ItemFileRowView,
  itemFileFailure,
  useItemFileRows,
  type ItemFileRow,
} from "@/components/items/item-file-rows";
import type { ClaimedFile, ImportPanelView } from "@/components/tasks/task-views";
import {
  CAPTION_SNIFF_BYTES,
  modelFromFileName,
  sniffCaptionFile,
  type CaptionFileKind,
} from "@/lib/tasks/captions/sniff-caption-file";

interface ReferenceSetRow {
  id: string;
  kind: string;
  name: string;
  outputs?: { model: string }[];
}

interface Summary {
  dryRun: boolean;
  set: { id: string | null; name: string; model: string | null; itemCount: number };
  items: { count: number; videos: number; byType: Record<string, number> };
  unmatched: string[];
}

interface CaptionRow extends ItemFileRow {
  kind: CaptionFileKind;
  model: string;
  /** Outputs: `file:<key>` of a reference dropped along, or `set:<id>` of a stored reference set. */
  reference: string;
  summary?: Summary;
  /** A reference set once stored. */
  setId?: string;
}

const captionRow = ({ picked, kind }: { picked: PickedFile; kind: CaptionFileKind }): CaptionRow => ({
  key: picked.relativePath,
  file: picked.file,
  relativePath: picked.relativePath,
  kind,
  model: kind === "caption_outputs" ? modelFromFileName(picked.relativePath) : "",
  reference: "",
  state: "new",
});

/** Outputs answer the reference dropped along by default (the first one), else the newest stored set. */
function linkOutputsToReference(rows: CaptionRow[]): CaptionRow[] {
  const firstReference = rows.find((r) => r.kind === "caption_reference");
  return rows.map((r) =>
    r.kind === "caption_outputs" && !r.reference && firstReference
      ? { ...r, reference: `file:${firstReference.key}` }
      : r,
  );
}
type Patch = (key: string, change: Partial<CaptionRow>) => void;

/**
 * Caption files dropped on the Import page: AnyCapEval reference sets and models' outputs. Each file is
 * first checked with a dry run (what it would create, every error with its line, reference videos missing
 * from the project), then imported: references before outputs, since outputs name their reference set.
 */
export function CaptionImport({
  projectId,
  files,
}: {
  projectId: string;
  files: { picked: PickedFile; kind: CaptionFileKind }[];
}) {
  const queryClient = useQueryClient();
  const { rows, current, patch } = useItemFileRows(
    files,
    ({ picked }) => picked.relativePath,
    captionRow,
    linkOutputsToReference,
  );
  const [busy, setBusy] = useState(false);
  const references = useQuery({
    queryKey: ["caption-sets", projectId],
    queryFn: () =>
      apiFetch<{ sets: ReferenceSetRow[] }>(`/api/v1/projects/${projectId}/caption-sets`).then((b) =>
        b.sets.filter((s) => s.kind === "caption_reference"),
      ),
  });
  const { send, referenceSetId } = useCaptionSend(projectId, patch);

  async function check() {
    setBusy(true);
    try {
      for (const row of current.current.filter((r) => r.state !== "imported" && r.state !== "importing"))
        await send(row, true);
    } finally {
      setBusy(false);
    }
  }

  async function importChecked() {
    setBusy(true);
    try {
      for (const row of current.current.filter((r) => r.kind === "caption_reference" && r.state === "checked"))
        await send(row, false);
      // Outputs whose reference was just stored get their dry run now; they are imported on the next click.
      for (const row of current.current.filter((r) => r.kind === "caption_outputs")) {
        if (row.state === "checked") await send(row, false);
        else if (row.state === "new" && referenceSetId(row)) await send(row, true);
      }
      await refetchAfterWrite(queryClient, ["caption-sets", projectId]);
    } finally {
      setBusy(false);
    }
  }

  if (rows.length === 0) return null;
  const checked = rows.filter((r) => r.state === "checked").length;
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="caption-import"
    >
      <h2 className="text-base font-semibold text-slate-800">Caption files</h2>
      <p className="text-slate-600">
        Import the videos first: a reference set matches its lines to the project&apos;s videos by file name.{" "}
        <b>Check</b> runs a dry run of every file (nothing is stored); <b>Import checked files</b> stores the files
        whose check passed, reference sets first, and then checks the outputs against the stored reference (import them
        with a second click). A bad file stores nothing.
      </p>
      <ul className="flex flex-col divide-y divide-slate-100 rounded border border-slate-200">
        {rows.map((row) => (
          <ItemFileRowView
            key={row.key}
            row={row}
            testId="caption-file"
            summary={row.summary && <CaptionRowSummary row={row} summary={row.summary} />}
          >
            <CaptionRowControls row={row} rows={rows} references={references.data ?? []} patch={patch} />
          </ItemFileRowView>
        ))}
      </ul>
      <div className="flex gap-3">
        <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={() => void check()}>
          Check caption files
        </button>
        <button
          type="button"
          className={buttonClass()}
          disabled={busy || checked === 0}
          onClick={() => void importChecked()}
        >
          Import checked files
        </button>
      </div>
    </section>
  );
}

/** Sends a row's file (a dry run or the import); an outputs file goes to its stored reference set. */
function useCaptionSend(projectId: string, patch: Patch) {
  // Stored reference sets by row key, readable at once (the rows' state only catches up on the next render).
  const storedSets = useRef(new Map<string, string>());

  /** The stored reference set an outputs row answers, if it is stored yet. */
  function referenceSetId(row: CaptionRow): string | null {
    if (row.reference.startsWith("set:")) return row.reference.slice(4);
    return row.reference.startsWith("file:") ? (storedSets.current.get(row.reference.slice(5)) ?? null) : null;
  }

  async function send(row: CaptionRow, dryRun: boolean): Promise<boolean> {
    const form = new FormData();
    form.set("file", row.file, fileNameOf(row.relativePath));
    if (dryRun) form.set("dryRun", "true");
    let url = `/api/v1/projects/${projectId}/caption-sets`;
    if (row.kind === "caption_outputs") {
      const setId = referenceSetId(row);
      if (!setId) {
        patch(row.key, {
          state: "new",
          message: "Import its reference set first; this file is checked against it then.",
        });
        return false;
      }
      if (!row.model.trim()) {
        patch(row.key, { state: "invalid", message: "Name the model that wrote these outputs." });
        return false;
      }
      form.set("model", row.model.trim());
      url = `/api/v1/projects/${projectId}/caption-sets/${setId}/outputs`;
    }
    patch(row.key, {
      state: dryRun ? "checking" : "importing",
      message: undefined,
      errors: undefined,
      unmatched: undefined,
    });
    try {
      const summary = await apiFetch<Summary>(url, { method: "POST", body: form });
      if (!dryRun && row.kind === "caption_reference" && summary.set.id)
        storedSets.current.set(row.key, summary.set.id);
      patch(
        row.key,
        dryRun ? { state: "checked", summary } : { state: "imported", summary, setId: summary.set.id ?? undefined },
      );
      return true;
    } catch (error) {
      patch(row.key, itemFileFailure(error));
      return false;
    }
  }

  return { send, referenceSetId };
}

function CaptionRowSummary({ row, summary }: { row: CaptionRow; summary: Summary }) {
  return (
    <p className="text-xs text-slate-600" data-testid="caption-file-summary">
      {summary.dryRun ? "Would create" : "Created"} {summary.set.name}
      {summary.set.model ? ` (${summary.set.model})` : ""}: {summary.items.count}{" "}
      {row.kind === "caption_reference" ? "references" : "captions"} over {summary.items.videos} videos ·{" "}
      {Object.entries(summary.items.byType)
        .map(([type, n]) => `${type} ${n}`)
        .join(", ")}
    </p>
  );
}

/** A row's kind and, for outputs, the model that wrote them and the reference set they answer. */
function CaptionRowControls({
  row,
  rows,
  references,
  patch,
}: {
  row: CaptionRow;
  rows: CaptionRow[];
  references: ReferenceSetRow[];
  patch: Patch;
}) {
  return (
    <>
      <select
        aria-label="File kind"
        className="rounded-md border border-slate-300 px-2 py-1"
        value={row.kind}
        disabled={row.state === "imported"}
        onChange={(e) => patch(row.key, { kind: e.target.value as CaptionFileKind, state: "new", summary: undefined })}
      >
        <option value="caption_reference">reference set (AnyCapEval)</option>
        <option value="caption_outputs">model outputs</option>
      </select>
      {row.kind === "caption_outputs" && (
        <>
          <label className="flex items-center gap-1">
            model
            <input
              className="w-40 rounded-md border border-slate-300 px-2 py-1"
              value={row.model}
              disabled={row.state === "imported"}
              data-testid="caption-model"
              onChange={(e) =>
                patch(row.key, {
                  model: e.target.value,
                  state: row.state === "checked" ? "new" : row.state,
                  summary: undefined,
                })
              }
            />
          </label>
          <select
            aria-label="Reference set"
            className="max-w-56 rounded-md border border-slate-300 px-2 py-1"
            value={row.reference}
            disabled={row.state === "imported"}
            onChange={(e) => patch(row.key, { reference: e.target.value, state: "new", summary: undefined })}
          >
            <option value="">choose the reference set</option>
            {rows
              .filter((r) => r.kind === "caption_reference" && !r.setId)
              .map((r) => (
                <option key={r.key} value={`file:${r.key}`}>
                  {fileNameOf(r.relativePath)} (dropped here)
                </option>
              ))}
            {references.map((s) => (
              <option
                key={s.id}
                value={
                  rows.some((r) => r.setId === s.id) ? `file:${rows.find((r) => r.setId === s.id)!.key}` : `set:${s.id}`
                }
              >
                {s.name}
              </option>
            ))}
          </select>
        </>
      )}
    </>
  );
}

/** CaptionImport as the captions task's Import page section (TaskViews.importPanels): a claim is the file's kind. */
function CaptionImportSection({ projectId, files }: { projectId: string; files: readonly ClaimedFile[] }) {
  const kinded = useMemo(() => files.map(({ picked, claim }) => ({ picked, kind: claim as CaptionFileKind })), [files]);
  return <CaptionImport projectId={projectId} files={kinded} />;
}

export const CAPTION_IMPORT_PANEL: ImportPanelView = {
  id: "captions",
  fileNames: /\.(jsonl|csv)$/i,
  sniffBytes: CAPTION_SNIFF_BYTES,
  description: "caption files (an AnyCapEval reference JSONL, models' outputs as JSONL or CSV)",
  claim: (relativePath, head) => sniffCaptionFile(relativePath, head),
  Panel: CaptionImportSection,
};
