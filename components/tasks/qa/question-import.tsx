"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
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
import { QUESTION_SNIFF_BYTES, sniffQuestionFile } from "@/lib/tasks/qa/sniff-question-file";

interface Summary {
  dryRun: boolean;
  set: { id: string | null; name: string; itemCount: number };
  items: { count: number; videos: number; byFormat: Record<string, number>; byCategory: Record<string, number> };
}

interface QuestionRow extends ItemFileRow {
  summary?: Summary;
}

const listCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([key, n]) => `${key} ${n}`)
    .join(", ");

const questionRow = (picked: PickedFile): QuestionRow => ({
  key: picked.relativePath,
  file: picked.file,
  relativePath: picked.relativePath,
  state: "new",
});

/**
 * Question sets dropped on the Import page (JSONL, a JSON array or CSV of questions): each file is first
 * checked with a dry run (what it would create, every error with its line, videos missing from the
 * project), then imported. Import the videos first: questions match them by file name.
 */
export function QuestionImport({ projectId, files }: { projectId: string; files: PickedFile[] }) {
  const queryClient = useQueryClient();
  const { rows, current, patch } = useItemFileRows(files, (picked) => picked.relativePath, questionRow);
  const [busy, setBusy] = useState(false);

  async function send(row: QuestionRow, dryRun: boolean) {
    const form = new FormData();
    form.set("file", row.file, fileNameOf(row.relativePath));
    if (dryRun) form.set("dryRun", "true");
    patch(row.key, {
      state: dryRun ? "checking" : "importing",
      message: undefined,
      errors: undefined,
      unmatched: undefined,
    });
    try {
      const summary = await apiFetch<Summary>(`/api/v1/projects/${projectId}/question-sets`, {
        method: "POST",
        body: form,
      });
      patch(row.key, { state: dryRun ? "checked" : "imported", summary });
    } catch (error) {
      patch(row.key, itemFileFailure(error));
    }
  }

  async function each(filter: (row: QuestionRow) => boolean, dryRun: boolean) {
    setBusy(true);
    try {
      for (const row of current.current.filter(filter)) await send(row, dryRun);
      if (!dryRun) await refetchAfterWrite(queryClient, ["question-sets", projectId]);
    } finally {
      setBusy(false);
    }
  }

  if (rows.length === 0) return null;
  const checked = rows.filter((r) => r.state === "checked").length;
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="question-import"
    >
      <h2 className="text-base font-semibold text-slate-800">Question sets</h2>
      <p className="text-slate-600">
        Import the videos first: questions match the project&apos;s videos by file name. <b>Check</b> runs a dry run of
        every file (nothing is stored); <b>Import checked files</b> stores the files whose check passed. A bad file
        stores nothing.
      </p>
      <ul className="flex flex-col divide-y divide-slate-100 rounded border border-slate-200">
        {rows.map((row) => (
          <ItemFileRowView
            key={row.key}
            row={row}
            testId="question-file"
            summary={
              row.summary && (
                <p className="text-xs text-slate-600" data-testid="question-file-summary">
                  {row.summary.dryRun ? "Would create" : "Created"} {row.summary.set.name}: {row.summary.items.count}{" "}
                  questions over {row.summary.items.videos} videos · {listCounts(row.summary.items.byFormat)} ·{" "}
                  {listCounts(row.summary.items.byCategory)}
                </p>
              )
            }
          />
        ))}
      </ul>
      <div className="flex gap-3">
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={busy}
          onClick={() => void each((r) => r.state !== "imported" && r.state !== "importing", true)}
        >
          Check question sets
        </button>
        <button
          type="button"
          className={buttonClass()}
          disabled={busy || checked === 0}
          onClick={() => void each((r) => r.state === "checked", false)}
        >
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
  description: "question sets (JSONL, JSON or CSV)",
  claim: (relativePath, head) => (sniffQuestionFile(relativePath, head) ? "question_set" : null),
  Panel: QuestionImportSection,
};
