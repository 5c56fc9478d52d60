"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState, type RefObject } from "react";
import { ApiError, apiFetch, postJson } from "@/lib/api-client";
import type { RubricProblem } from "@/lib/rubrics/rubric-definition";
import type { RubricTaskSummary } from "@/lib/rubrics/rubric-tasks";
import type { RubricPreviewChoices } from "@/lib/rubrics/rubric-tasks-page";
import { RubricEditor } from "./rubric-editor";
import { RubricItemImport } from "./rubric-item-import";
import { RubricTaskRow, RubricTaskTableHead } from "./rubric-task-row";

/** An API error's message, with a rubric definition's problems one per line. */
function errorLines(error: unknown): string[] {
  if (!(error instanceof Error)) return [String(error)];
  const problems =
    error instanceof ApiError
      ? (error.body as { error?: { details?: { problems?: RubricProblem[] } } } | null)?.error?.details?.problems
      : undefined;
  return problems?.length ? problems.map((p) => `${p.path}: ${p.message}`) : [error.message];
}

/**
 * The Rubric tasks page's client part: the project's rubric tasks (every member reads them), and for owners
 * new, edit (a new version), archive/restore, delete (only without runs), import a file and export one.
 */
export function RubricTasksPanel({
  projectId,
  tasks,
  canManage,
  canImportItems,
  preview,
}: {
  projectId: string;
  tasks: RubricTaskSummary[];
  canManage: boolean;
  /** May import item files (owners and editors): a task whose subject is an item gets an "Items" action. */
  canImportItems: boolean;
  preview: RubricPreviewChoices | null;
}) {
  const router = useRouter();
  // "new", a task's id, or null: which definition the editor shows.
  const [open, setOpen] = useState<string | null>(null);
  // The task whose items panel is shown, or null.
  const [itemsOf, setItemsOf] = useState<string | null>(null);
  const itemsTask = tasks.find((t) => t.id === itemsOf && t.definition.subject.kind === "item") ?? null;
  const fileInput = useRef<HTMLInputElement>(null);
  const edited = tasks.find((t) => t.id === open) ?? null;

  const archive = useMutation({
    mutationFn: ({ id, archived }: { id: string; archived: boolean }) =>
      apiFetch(`/api/v1/rubric-tasks/${id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ archived }),
      }),
    onSuccess: () => router.refresh(),
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`/api/v1/rubric-tasks/${id}`, { method: "DELETE" }),
    onSuccess: (_, id) => {
      if (open === id) setOpen(null);
      // "Imported …" no longer describes the list once a task is gone.
      importFile.reset();
      router.refresh();
    },
  });
  const importFile = useMutation({
    mutationFn: async (file: File) =>
      postJson<{ id: string; name: string }>(`/api/v1/projects/${projectId}/rubric-tasks`, { file: await file.text() }),
    onSuccess: () => router.refresh(),
    onSettled: () => {
      if (fileInput.current) fileInput.current.value = "";
    },
  });
  const failed = archive.error ?? remove.error ?? importFile.error;

  return (
    <div className="flex flex-col gap-5">
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-base font-semibold text-slate-800">Rubric tasks ({tasks.length})</h2>
          {canManage && (
            <RubricTasksToolbar
              fileInput={fileInput}
              onNew={() => setOpen("new")}
              onFile={(file) => importFile.mutate(file)}
            />
          )}
        </div>
        <RubricTasksStatus importing={importFile.isPending} imported={importFile.data ?? null} failed={failed} />
        {tasks.length === 0 ? (
          <NoRubricTasks canManage={canManage} />
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="rubric-task-list">
              <RubricTaskTableHead />
              <tbody>
                {tasks.map((t) => (
                  <RubricTaskRow
                    key={t.id}
                    projectId={projectId}
                    task={t}
                    canManage={canManage}
                    canImportItems={canImportItems}
                    onEdit={() => setOpen(t.id)}
                    onToggleItems={() => setItemsOf(itemsOf === t.id ? null : t.id)}
                    archive={archive}
                    remove={remove}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {itemsTask && <RubricItemImport key={itemsTask.id} task={itemsTask} />}
      {open && (open === "new" || edited) && (
        <RubricEditor
          key={open === "new" ? "new" : edited!.id}
          projectId={projectId}
          task={edited ? { id: edited.id, version: edited.version, definition: edited.definition } : null}
          canManage={canManage}
          preview={preview}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  );
}

/** What the last import or action did: importing, the task imported, or the error (a definition's problems one per line). */
function RubricTasksStatus({
  importing,
  imported,
  failed,
}: {
  importing: boolean;
  imported: { name: string } | null;
  failed: Error | null;
}) {
  return (
    <>
      {importing && <p className="text-sm text-slate-600">Importing…</p>}
      {imported && (
        <p role="status" className="mb-2 text-sm text-green-700" data-testid="rubric-imported">
          Imported “{imported.name}”.
        </p>
      )}
      {failed && (
        <div role="alert" className="mb-2 text-sm text-red-700" data-testid="rubric-tasks-error">
          {errorLines(failed).map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </div>
      )}
    </>
  );
}

/** The list without tasks: what an owner can do, or who defines them. */
function NoRubricTasks({ canManage }: { canManage: boolean }) {
  return (
    <p className="text-sm text-slate-500">
      No rubric tasks yet.{" "}
      {canManage ? "Define one (“New rubric task”) or import a rubric file." : "An owner defines them here."}
    </p>
  );
}

/** New rubric task, and importing a rubric file. */
function RubricTasksToolbar({
  fileInput,
  onNew,
  onFile,
}: {
  fileInput: RefObject<HTMLInputElement | null>;
  onNew: () => void;
  onFile: (file: File) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white"
        onClick={onNew}
      >
        New rubric task
      </button>
      <label className="cursor-pointer rounded border border-slate-300 px-3 py-1.5 text-sm">
        Import a JSON or YAML file
        <input
          ref={fileInput}
          type="file"
          accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
          className="sr-only"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onFile(file);
          }}
        />
      </label>
    </div>
  );
}
