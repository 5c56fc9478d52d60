"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/lib/api-client";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import type { DeclarationCatalogue } from "@/lib/task-modules/declaration-catalogue";
import { itemNounPhrase } from "@/lib/task-modules/task-display";
import type { VideoDeletionCounts, VideoDeletionResult } from "@/lib/videos/delete-videos";
import type { VideoDeletionState } from "@/lib/videos/video-deletion-job";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** The server's counts as lines a person can check before confirming. */
export function deletionLines(c: VideoDeletionCounts, catalogue: DeclarationCatalogue): string[] {
  return [
    `${plural(c.videos, "video")} with ${plural(c.frameSets, "frame set")} and ${plural(c.frames, "frame")} (${plural(c.storageObjects, "stored file")} removed from storage)`,
    `${plural(c.humanJudgments, "human judgment")} and ${plural(c.goldJudgments, "gold value")}`,
    `their results in ${plural(c.runs, "run")}: ${plural(c.runVideos, "run video")}, ${plural(c.steps, "step")}, ${plural(c.llmCalls, "LLM call")}${c.runItems ? `, ${plural(c.runItems, "run item")}` : ""}${c.runsDeleted ? `; ${plural(c.runsDeleted, "run")} left with no video ${c.runsDeleted === 1 ? "is" : "are"} deleted` : ""}`,
    `${plural(c.queueItems, "review-queue item")}${c.queuesDeleted ? `; ${plural(c.queuesDeleted, "queue")} left empty ${c.queuesDeleted === 1 ? "is" : "are"} deleted` : ""}`,
    ...(c.items ? [`${plural(c.items, itemNounPhrase(catalogue).one, itemNounPhrase(catalogue).many)} of them`] : []),
    ...(c.edits ? [`${plural(c.edits, "recorded edit")}`] : []),
  ];
}

/**
 * Asks the server what deleting these videos removes (a dry run), shows it, and deletes on confirm.
 * Nothing is deleted until the button inside is pressed.
 */
export function DeleteVideosDialog({
  projectId,
  videoIds,
  onCancel,
  onDeleted,
}: {
  projectId: string;
  videoIds: string[];
  onCancel: () => void;
  onDeleted: (result: VideoDeletionResult) => void;
}) {
  const catalogue = useTaskCatalogue();
  const dryRun = useDeletionCounts(projectId, videoIds);
  const deletion = useVideoDeletion(projectId, videoIds, onDeleted);
  const counts = dryRun.counts;
  const error = deletion.error ?? dryRun.error;
  const { busy, progress, confirm, cancelJob } = deletion;

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="delete-videos-title"
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/40 p-4"
      data-testid="delete-videos-dialog"
    >
      <div className="flex w-full max-w-lg flex-col gap-3 rounded-lg bg-white p-5 text-sm shadow-xl">
        <h2 id="delete-videos-title" className="text-base font-semibold">
          Delete {plural(videoIds.length, "video")}?
        </h2>
        {!counts && !error && (
          <p className="text-slate-500">Counting what depends on {videoIds.length === 1 ? "it" : "them"}…</p>
        )}
        {counts && (
          <>
            <p>This deletes, and cannot be undone:</p>
            <ul className="ml-5 list-disc" data-testid="delete-counts">
              {deletionLines(counts, catalogue).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
        {progress && <DeletionProgress progress={progress} />}
        {error && (
          <p
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-2 text-red-800"
            data-testid="delete-error"
          >
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          {progress ? (
            <button
              type="button"
              className={buttonClass("secondary")}
              onClick={() => void cancelJob()}
              disabled={progress.cancelRequested}
              data-testid="cancel-video-deletion"
            >
              Cancel deletion
            </button>
          ) : (
            <button type="button" className={buttonClass("secondary")} onClick={onCancel} disabled={busy}>
              Cancel
            </button>
          )}
          <button
            type="button"
            className={buttonClass("danger")}
            onClick={() => void confirm()}
            disabled={!counts || busy}
            data-testid="confirm-delete-videos"
          >
            {busy ? "Deleting…" : `Delete ${plural(videoIds.length, "video")}`}
          </button>
        </div>
      </div>
    </div>
  );
}

/** Follows a deletion the worker runs and reports it once, when it ends (done or cancelled). */
/** What deleting these videos removes, as the server counts it in a dry run (nothing is deleted). */
function useDeletionCounts(projectId: string, videoIds: string[]) {
  const [counts, setCounts] = useState<VideoDeletionCounts | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The ids as text: a parent's re-render passes an equal array that must not count again.
  const idsKey = videoIds.join(",");
  useEffect(() => {
    let live = true;
    postJson<VideoDeletionResult>(`/api/v1/projects/${projectId}/videos/delete`, {
      videoIds: idsKey.split(","),
      dryRun: true,
    })
      .then((result) => live && setCounts(result.counts))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [projectId, idsKey]);
  return { counts, error };
}

/**
 * The confirmed deletion: done inline, or, for a selection over the inline limit, by a worker whose progress is
 * followed here until it ends (and which can be cancelled).
 */
function useVideoDeletion(projectId: string, videoIds: string[], onDeleted: (result: VideoDeletionResult) => void) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [queued, setQueued] = useState<VideoDeletionResult | null>(null);
  const job = useDeletionJob(projectId, queued, onDeleted);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      const result = await apiFetch<VideoDeletionResult>(`/api/v1/projects/${projectId}/videos/delete`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ videoIds }),
      });
      if (result.deletion) setQueued(result);
      else onDeleted(result);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  async function cancelJob() {
    try {
      await postJson(`/api/v1/projects/${projectId}/video-deletions/${queued!.deletion!.id}/cancel`, {});
      await job.refetch();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }
  return { error, busy, progress: job.data ?? queued?.deletion ?? null, confirm, cancelJob };
}

function useDeletionJob(
  projectId: string,
  queued: VideoDeletionResult | null,
  onDeleted: (result: VideoDeletionResult) => void,
) {
  const job = useQuery({
    queryKey: ["video-deletion", projectId, queued?.deletion?.id],
    queryFn: () =>
      apiFetch<VideoDeletionState>(`/api/v1/projects/${projectId}/video-deletions/${queued!.deletion!.id}`),
    enabled: Boolean(queued?.deletion),
    refetchInterval: (query) =>
      query.state.data && !["queued", "running"].includes(query.state.data.status) ? false : 1000,
  });
  const reported = useRef(false);
  useEffect(() => {
    const state = job.data;
    if (!queued || !state || reported.current || (state.status !== "done" && state.status !== "cancelled")) return;
    reported.current = true;
    onDeleted({ ...queued, counts: { ...queued.counts, videos: state.videosDeleted }, deletion: state });
  }, [job.data, queued, onDeleted]);
  return job;
}

function DeletionProgress({ progress }: { progress: VideoDeletionState }) {
  return (
    <div className="flex items-center gap-3 text-xs text-slate-600" data-testid="video-deletion-progress">
      <progress max={progress.videosTotal} value={progress.videosDeleted} aria-label="videos deleted" />
      <span>
        {progress.videosDeleted.toLocaleString("en")} / {progress.videosTotal.toLocaleString("en")} videos deleted by a
        worker
        {progress.cancelRequested ? " · cancelling after the current batch" : ""}
      </span>
    </div>
  );
}
