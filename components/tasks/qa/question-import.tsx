"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { ApiError, apiFetch } from "@/lib/api-client";
import type { PickedFile } from "@/components/import/collect-files";
import type { ClaimedFile, ImportPanelView } from "@/components/tasks/task-views";
import { QUESTION_SNIFF_BYTES, sniffQuestionFile } from "@/lib/tasks/qa/sniff-question-file";

interface Summary {
  dryRun: boolean;
  set: { id: string | null; name: string; itemCount: number };
  items: { count: number; videos: number; byFormat: Record<string, number>; byCategory: Record<string, number> };
}

type RowState = "new" | "checking" | "checked" | "invalid" | "importing" | "imported" | "error";

interface QuestionRow {
  key: string;
  file: File;
  relativePath: string;
  state: RowState;
  summary?: Summary;
  errors?: { line: number | null; message: string }[];
  unmatched?: string[];
  message?: string;
}

const fileName = (path: string) => path.split("/").pop() ?? path;
const listCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([key, n]) => `${key} ${n}`)
    .join(", ");

/**
 * Question sets dropped on the Import page (JSONL, a JSON array or CSV of questions): each file is first
 * checked with a dry run (what it would create, every error with its line, videos missing from the
 * project), then imported. Import the videos first: questions match them by file name.
 */
export function QuestionImport({ projectId, files }: { projectId: string; files: PickedFile[] }) {
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<QuestionRow[]>([]);
  const [busy, setBusy] = useState(false);
  const seen = useRef(new Set<string>());
  const current = useRef(rows);
  current.current = rows;

  useEffect(() => {
    const added = files.filter((picked) => !seen.current.has(picked.relativePath));
    if (added.length === 0) return;
    for (const picked of added) seen.current.add(picked.relativePath);
    setRows((old) => [...old, ...added.map((picked) => ({ key: picked.relativePath, file: picked.file, relativePath: picked.relativePath, state: "new" as const }))]);
  }, [files]);

  const patch = (key: string, change: Partial<QuestionRow>) => setRows((old) => old.map((r) => (r.key === key ? { ...r, ...change } : r)));

  async function send(row: QuestionRow, dryRun: boolean) {
    const form = new FormData();
    form.set("file", row.file, fileName(row.relativePath));
    if (dryRun) form.set("dryRun", "true");
    patch(row.key, { state: dryRun ? "checking" : "importing", message: undefined, errors: undefined, unmatched: undefined });
    try {
      const summary = await apiFetch<Summary>(`/api/v1/projects/${projectId}/question-sets`, { method: "POST", body: form });
      patch(row.key, { state: dryRun ? "checked" : "imported", summary });
    } catch (error) {
      const details = error instanceof ApiError ? (error.body as { error?: { details?: { errors?: QuestionRow["errors"]; unmatched?: string[] } } } | null)?.error?.details : undefined;
      patch(row.key, {
        state: error instanceof ApiError && error.code === "invalid_file" ? "invalid" : "error",
        message: error instanceof Error ? error.message : String(error),
        errors: details?.errors,
        unmatched: details?.unmatched,
      });
    }
  }

  async function each(filter: (row: QuestionRow) => boolean, dryRun: boolean) {
    setBusy(true);
    try {
      for (const row of current.current.filter(filter)) await send(row, dryRun);
      if (!dryRun) await queryClient.invalidateQueries({ queryKey: ["question-sets", projectId] });
    } finally {
      setBusy(false);
    }
  }

  if (rows.length === 0) return null;
  const checked = rows.filter((r) => r.state === "checked").length;
  return (
    <section className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="question-import">
      <h2 className="text-base font-semibold text-slate-800">Question sets</h2>
      <p className="text-slate-600">
        Import the videos first: questions match the project&apos;s videos by file name. <b>Check</b> runs a dry run of every file (nothing is stored); <b>Import checked files</b> stores the files
        whose check passed. A bad file stores nothing.
      </p>
      <ul className="flex flex-col divide-y divide-slate-100 rounded border border-slate-200">
        {rows.map((row) => (
          <li key={row.key} className="flex flex-col gap-2 px-3 py-2" data-testid="question-file" data-state={row.state} data-path={row.relativePath}>
            <div className="flex flex-wrap items-center gap-3">
              <span className="min-w-0 flex-1 truncate font-mono text-xs" title={row.relativePath}>
                {row.relativePath}
              </span>
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs" data-testid="question-file-state">
                {row.state}
              </span>
            </div>
            {row.summary && (
              <p className="text-xs text-slate-600" data-testid="question-file-summary">
                {row.summary.dryRun ? "Would create" : "Created"} {row.summary.set.name}: {row.summary.items.count} questions over {row.summary.items.videos} videos ·{" "}
                {listCounts(row.summary.items.byFormat)} · {listCounts(row.summary.items.byCategory)}
              </p>
            )}
            {row.message && (
              <p className={`text-xs ${row.state === "invalid" || row.state === "error" ? "text-red-700" : "text-slate-500"}`} data-testid="question-file-message">
                {row.message}
              </p>
            )}
            {row.errors && row.errors.length > 0 && (
              <ul className="max-h-48 overflow-y-auto text-xs text-red-700" data-testid="question-file-errors">
                {row.errors.map((e, i) => (
                  <li key={i}>
                    {e.line !== null ? `line ${e.line}: ` : ""}
                    {e.message}
                  </li>
                ))}
              </ul>
            )}
            {row.unmatched && row.unmatched.length > 0 && (
              <p className="text-xs text-red-700" data-testid="question-file-unmatched">
                Not in the project: {row.unmatched.join(", ")}
              </p>
            )}
          </li>
        ))}
      </ul>
      <div className="flex gap-3">
        <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={() => void each((r) => r.state !== "imported" && r.state !== "importing", true)}>
          Check question sets
        </button>
        <button type="button" className={buttonClass()} disabled={busy || checked === 0} onClick={() => void each((r) => r.state === "checked", false)}>
          Import checked question sets
        </button>
      </div>
    </section>
  );
}

/** QuestionImport as the QA task's Import page section (TaskViews.importPanels). */
function QuestionImportSection({ projectId, files }: { projectId: string; files: readonly ClaimedFile[] }) {
  const picked = useMemo(() => files.map((claimed) => claimed.picked), [files]);
  return <QuestionImport projectId={projectId} files={picked} />;
}

export const QUESTION_IMPORT_PANEL: ImportPanelView = {
  id: "questions",
  fileNames: /\.(jsonl|csv|json)$/i,
  sniffBytes: QUESTION_SNIFF_BYTES,
  claim: (relativePath, head) => (sniffQuestionFile(relativePath, head) ? "question_set" : null),
  Panel: QuestionImportSection,
};
