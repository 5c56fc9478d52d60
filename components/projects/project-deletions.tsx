"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/lib/api-client";
import type { ProjectDeletionState } from "@/lib/projects/project-deletion";

type Deletion = Omit<ProjectDeletionState, "createdAt" | "finishedAt"> & {
  createdAt: string;
  finishedAt: string | null;
};

const KEY = ["project-deletions"];
const unfinished = (d: Deletion) => d.status === "queued" || d.status === "running";

function DeletionRow({ deletion }: { deletion: Deletion }) {
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => postJson<Deletion>(`/api/v1/me/project-deletions/${deletion.id}/cancel`, {}),
    onSettled: () => refetchAfterWrite(queryClient, KEY),
  });
  const total = Math.max(deletion.videosTotal, deletion.videosDeleted);
  const percent = total ? Math.round((100 * deletion.videosDeleted) / total) : deletion.status === "done" ? 100 : 0;
  const state =
    deletion.status === "done"
      ? "deleted"
      : deletion.status === "cancelled"
        ? deletion.videosDeleted === 0
          ? "cancelled before any video was deleted: the project is back"
          : `cancelled: ${deletion.videosDeleted.toLocaleString("en")} video${deletion.videosDeleted === 1 ? " was" : "s were"} deleted, the project and the rest are back`
        : deletion.cancelRequested
          ? "cancelling after the current batch…"
          : deletion.status === "queued"
            ? "waiting for a worker"
            : "deleting";
  return (
    <li className="flex flex-col gap-1 px-4 py-3" data-testid="project-deletion" data-status={deletion.status}>
      <div className="flex items-center justify-between gap-3">
        <span className="font-medium">{deletion.projectName}</span>
        {unfinished(deletion) && !deletion.cancelRequested && (
          <button
            type="button"
            className={buttonClass("secondary")}
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
            data-testid="project-deletion-cancel"
          >
            Cancel deletion
          </button>
        )}
      </div>
      <div className="flex items-center gap-3 text-xs text-slate-600">
        <div
          className="h-2 w-48 overflow-hidden rounded bg-slate-200"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={deletion.videosDeleted}
          aria-label={`videos of ${deletion.projectName} deleted`}
        >
          <div className="h-full bg-red-500" style={{ width: `${percent}%` }} />
        </div>
        <span data-testid="project-deletion-progress">
          {deletion.videosDeleted.toLocaleString("en")} / {total.toLocaleString("en")} videos ·{" "}
          {deletion.storageRemoved.toLocaleString("en")} stored files removed
        </span>
        <span data-testid="project-deletion-state">{state}</span>
      </div>
      {deletion.error && unfinished(deletion) && (
        <p className="text-xs text-amber-800" role="status">
          The last attempt failed ({deletion.error}); a worker tries again.
        </p>
      )}
      {cancel.error && (
        <p className="text-xs text-red-800" role="alert">
          {cancel.error.message}
        </p>
      )}
    </li>
  );
}

/** The signed-in account's project deletions (lib/projects/project-deletion.ts), followed live while any is going. */
export function ProjectDeletions({ initial }: { initial: Deletion[] }) {
  const deletions = useQuery({
    queryKey: KEY,
    queryFn: () => apiFetch<{ deletions: Deletion[] }>("/api/v1/me/project-deletions").then((b) => b.deletions),
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.some(unfinished) ? 1000 : false),
  });
  if (!deletions.data?.length) return null;
  return (
    <section className="flex flex-col gap-2" aria-label="Project deletions">
      <h2 className="text-sm font-semibold text-slate-700">Project deletions</h2>
      <ul
        className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm"
        data-testid="project-deletions"
      >
        {deletions.data.map((deletion) => (
          <DeletionRow key={deletion.id} deletion={deletion} />
        ))}
      </ul>
    </section>
  );
}
