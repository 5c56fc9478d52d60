"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { ItemFileRowView, itemFileFailure, type ItemFileRow } from "@/components/items/item-file-rows";
import { apiFetch } from "@/lib/api-client";
import type { RubricTaskSummary } from "@/lib/rubrics/rubric-tasks";

interface Summary {
  dryRun: boolean;
  set: { id: string | null; name: string; itemCount: number };
  items: { count: number; videos: number };
}

type Row = ItemFileRow & { summary?: Summary };

/**
 * The items of a rubric task whose subject is an item: a JSONL, JSON or CSV file whose rows name their video and
 * give the fields the rubric declares. "Check" is a dry run (every unreadable row with its line, nothing stored);
 * "Import" stores the checked file as an item set the Judge page's run form then offers.
 */
export function RubricItemImport({ task }: { task: RubricTaskSummary }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [row, setRow] = useState<Row | null>(null);
  const [busy, setBusy] = useState(false);
  const subject = task.definition.subject;
  if (subject.kind !== "item") return null;

  async function send(file: File, dryRun: boolean) {
    const form = new FormData();
    form.set("file", file, file.name);
    if (dryRun) form.set("dryRun", "true");
    setBusy(true);
    setRow({ key: file.name, file, relativePath: file.name, state: dryRun ? "checking" : "importing" });
    try {
      const summary = await apiFetch<Summary>(`/api/v1/rubric-tasks/${task.id}/item-sets`, {
        method: "POST",
        body: form,
      });
      setRow({ key: file.name, file, relativePath: file.name, state: dryRun ? "checked" : "imported", summary });
      if (!dryRun) router.refresh();
    } catch (error) {
      setRow({ key: file.name, file, relativePath: file.name, ...itemFileFailure(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="rubric-item-import"
    >
      <h2 className="text-base font-semibold text-slate-800">Items of “{task.name}”</h2>
      <p className="text-slate-600">
        A JSONL, JSON or CSV file with one item per row: <code>video</code> (the video&apos;s path or file name), an
        optional <code>id</code>, and{" "}
        {subject.fields.map((f, i) => (
          <span key={f.id}>
            {i > 0 ? ", " : ""}
            <code>{f.id}</code> ({f.label}
            {f.required ? "" : ", optional"})
          </span>
        ))}
        . Import the videos first. The file is checked first (nothing is stored); a file with an unreadable row stores
        nothing.
      </p>
      <label className="w-fit cursor-pointer rounded border border-slate-300 px-3 py-1.5">
        Choose an item file
        <input
          ref={input}
          type="file"
          accept=".jsonl,.json,.csv,application/json,text/csv"
          className="sr-only"
          data-testid="rubric-item-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void send(file, true);
            e.target.value = "";
          }}
        />
      </label>
      {row && (
        <ul className="flex flex-col rounded border border-slate-200">
          <ItemFileRowView
            row={row}
            testId="rubric-item-file-row"
            summary={
              row.summary && (
                <p className="text-xs text-slate-600" data-testid="rubric-item-summary">
                  {row.summary.dryRun ? "Would create" : "Created"} {row.summary.set.name}: {row.summary.items.count}{" "}
                  items over {row.summary.items.videos} videos
                </p>
              )
            }
          >
            {row.state === "checked" && (
              <button
                type="button"
                className={buttonClass()}
                disabled={busy}
                onClick={() => void send(row.file, false)}
              >
                Import
              </button>
            )}
          </ItemFileRowView>
        </ul>
      )}
    </section>
  );
}
