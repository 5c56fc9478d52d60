// One row of the Rubric tasks page's list: a task's name, version (with its history), criteria, frames, runs and
// state, and the actions a member may take on it.
import Link from "next/link";
import type { RubricTaskSummary } from "@/lib/rubrics/rubric-tasks";

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

/** A mutation as a row uses it: whether one is under way, and starting one. */
interface RowAction<T> {
  isPending: boolean;
  mutate: (variables: T) => void;
}

export function RubricTaskRow({
  projectId,
  task: t,
  canManage,
  canImportItems,
  onEdit,
  onToggleItems,
  archive,
  remove,
}: {
  projectId: string;
  task: RubricTaskSummary;
  canManage: boolean;
  canImportItems: boolean;
  onEdit: () => void;
  onToggleItems: () => void;
  archive: RowAction<{ id: string; archived: boolean }>;
  remove: RowAction<string>;
}) {
  return (
    <tr className="border-t border-slate-100" data-testid="rubric-task" data-task-id={t.id} data-pipeline={t.pipeline}>
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
        {t.archived ? <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">archived</span> : "active"}
      </td>
      <td className="py-1.5">
        <div className="flex flex-wrap justify-end gap-3 text-xs">
          <button
            type="button"
            className="text-indigo-700 underline"
            onClick={onEdit}
            aria-label={`${canManage ? "Edit" : "View"} ${t.name}`}
          >
            {canManage ? "Edit" : "View"}
          </button>
          {canImportItems && t.definition.subject.kind === "item" && (
            <button
              type="button"
              className="text-indigo-700 underline"
              onClick={onToggleItems}
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
              title={t.runs > 0 ? "It has runs: archive it instead, so their results keep their meaning." : undefined}
              onClick={() => {
                if (window.confirm(`Delete the rubric task “${t.name}”? It has no runs; this cannot be undone.`))
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
  );
}

export function RubricTaskTableHead() {
  return (
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
  );
}
