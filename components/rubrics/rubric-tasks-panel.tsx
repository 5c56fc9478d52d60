"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ApiError, apiFetch, postJson } from "@/lib/api-client";
import type { RubricProblem } from "@/lib/rubrics/rubric-definition";
import type { RubricTaskSummary } from "@/lib/rubrics/rubric-tasks";
import type { RubricPreviewChoices } from "@/lib/rubrics/rubric-tasks-page";
import { RubricEditor } from "./rubric-editor";
import { RubricItemImport } from "./rubric-item-import";

const FRAMES_WORDS = {
  uniform: "uniform",
  key_frames: "key frames",
  each_key_frame: "each key frame",
  each_cluster: "each cluster",
} as const;

/** Every version of a task, newest first; a version an alignment saved links to that alignment's report. */
function VersionHistory({ projectId, task }: { projectId: string; task: RubricTaskSummary }) {
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-slate-500">versions</summary>
      <ul data-testid="rubric-task-versions">
        {task.versions.map((v) => (
          <li key={v.number} id={`rubric-${task.id}-v${v.number}`}>
            v{v.number}, {v.createdAt.slice(0, 10)}
            {v.alignmentId && (
              <>
                {" "}
                ·{" "}
                <Link
                  className="text-indigo-700 underline"
                  href={`/projects/${projectId}/alignment?id=${v.alignmentId}`}
                >
                  saved by an alignment
                </Link>
              </>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

function framesWords(task: RubricTaskSummary): string {
  const frames = task.definition.frames;
  if (frames.mode !== "uniform")
    return `${FRAMES_WORDS[frames.mode]}${frames.longestSide ? `, ${frames.longestSide} px` : ""}`;
  return `${frames.count} uniform${frames.longestSide ? `, ${frames.longestSide} px` : ""}`;
}

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
            <div className="flex flex-wrap items-center gap-2">
              <button
                type="button"
                className="rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white"
                onClick={() => setOpen("new")}
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
                    if (file) importFile.mutate(file);
                  }}
                />
              </label>
            </div>
          )}
        </div>
        {importFile.isPending && <p className="text-sm text-slate-600">Importing…</p>}
        {importFile.data && (
          <p role="status" className="mb-2 text-sm text-green-700" data-testid="rubric-imported">
            Imported “{importFile.data.name}”.
          </p>
        )}
        {failed && (
          <div role="alert" className="mb-2 text-sm text-red-700" data-testid="rubric-tasks-error">
            {errorLines(failed).map((line, i) => (
              <p key={i}>{line}</p>
            ))}
          </div>
        )}
        {tasks.length === 0 ? (
          <p className="text-sm text-slate-500">
            No rubric tasks yet.{" "}
            {canManage ? "Define one (“New rubric task”) or import a rubric file." : "An owner defines them here."}
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="rubric-task-list">
              <thead className="text-xs text-slate-500">
                <tr>
                  <th className="py-1 pr-3 font-medium">Name</th>
                  <th className="py-1 pr-3 font-medium">Version</th>
                  <th className="py-1 pr-3 font-medium">Criteria</th>
                  <th className="py-1 pr-3 font-medium">Frames</th>
                  <th className="py-1 pr-3 font-medium">Runs</th>
                  <th className="py-1 pr-3 font-medium">State</th>
                  <th className="py-1 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tasks.map((t) => (
                  <tr
                    key={t.id}
                    className="border-t border-slate-100"
                    data-testid="rubric-task"
                    data-task-id={t.id}
                    data-pipeline={t.pipeline}
                  >
                    <td className="py-1.5 pr-3 font-medium" data-testid="rubric-task-name">
                      {t.name}
                    </td>
                    <td className="py-1.5 pr-3">
                      <span data-testid="rubric-task-version">{t.version}</span>
                      {t.versions.length > 1 && <VersionHistory projectId={projectId} task={t} />}
                    </td>
                    <td className="py-1.5 pr-3">{t.definition.criteria.length}</td>
                    <td className="py-1.5 pr-3">{framesWords(t)}</td>
                    <td className="py-1.5 pr-3" data-testid="rubric-task-runs">
                      {t.runs}
                    </td>
                    <td className="py-1.5 pr-3" data-testid="rubric-task-state">
                      {t.archived ? (
                        <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">archived</span>
                      ) : (
                        "active"
                      )}
                    </td>
                    <td className="py-1.5">
                      <div className="flex flex-wrap justify-end gap-3 text-xs">
                        <button
                          type="button"
                          className="text-indigo-700 underline"
                          onClick={() => setOpen(t.id)}
                          aria-label={`${canManage ? "Edit" : "View"} ${t.name}`}
                        >
                          {canManage ? "Edit" : "View"}
                        </button>
                        {canImportItems && t.definition.subject.kind === "item" && (
                          <button
                            type="button"
                            className="text-indigo-700 underline"
                            onClick={() => setItemsOf(itemsOf === t.id ? null : t.id)}
                            aria-label={`Import items for ${t.name}`}
                          >
                            Items
                          </button>
                        )}
                        <a
                          className="text-indigo-700 underline"
                          href={`/api/v1/rubric-tasks/${t.id}/export`}
                          download
                          aria-label={`Export ${t.name}`}
                        >
                          Export
                        </a>
                        {canManage && (
                          <button
                            type="button"
                            className="text-indigo-700 underline"
                            disabled={archive.isPending}
                            onClick={() => archive.mutate({ id: t.id, archived: !t.archived })}
                            aria-label={`${t.archived ? "Restore" : "Archive"} ${t.name}`}
                          >
                            {t.archived ? "Restore" : "Archive"}
                          </button>
                        )}
                        {canManage && (
                          <button
                            type="button"
                            className="text-red-700 underline disabled:text-slate-400 disabled:no-underline"
                            disabled={t.runs > 0 || remove.isPending}
                            title={
                              t.runs > 0
                                ? "It has runs: archive it instead, so their results keep their meaning."
                                : undefined
                            }
                            onClick={() => {
                              if (
                                window.confirm(
                                  `Delete the rubric task “${t.name}”? It has no runs; this cannot be undone.`,
                                )
                              )
                                remove.mutate(t.id);
                            }}
                            aria-label={`Delete ${t.name}`}
                          >
                            Delete
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
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
