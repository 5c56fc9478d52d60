// The Judge page's "Start from a manifest": a run manifest pasted or uploaded, its dry run (what it would run and
// cost, from the same request), then the run itself (`POST …/runs` with `{manifest}`).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";
import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { readManifestText, type ManifestSummary } from "@/lib/judge/runs/run-manifest-text";
import type { RunDryRunAnswer } from "@/lib/judge/runs/runs.types";
import { RunEstimateSummary } from "./run-estimate";

/** The Judge page's "Start from a manifest" form: the manifest, its summary, its dry run and the run. */
export function RunManifestForm({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const read = readManifestText(text);
  const url = `/api/v1/projects/${projectId}/runs`;
  const dryRun = useMutation({
    mutationFn: (manifest: Record<string, unknown>) => postJson<RunDryRunAnswer>(url, { manifest, dryRun: true }),
  });
  const start = useMutation({
    mutationFn: (manifest: Record<string, unknown>) => postJson<{ id: string; videos: number }>(url, { manifest }),
    onSuccess: () => refetchAfterWrite(queryClient, ["runs", projectId]),
  });
  // A changed manifest is another run: its dry run is asked again before it starts.
  const change = (next: string) => {
    setText(next);
    dryRun.reset();
    start.reset();
  };
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="run-manifest-form">
      <summary className="cursor-pointer font-medium">Start from a manifest</summary>
      <p className="mt-2 text-slate-600">
        A run&apos;s manifest (<i>Download the run manifest</i> on its page) runs the same task, settings, prompt
        versions, input mode and videos again on its endpoint.
      </p>
      <div className="mt-2 flex flex-col gap-2">
        <input
          type="file"
          accept="application/json,.json"
          aria-label="Manifest file"
          data-testid="run-manifest-file"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (file) change(await file.text());
          }}
        />
        <textarea
          className="h-32 rounded-md border border-slate-300 px-2 py-1.5 font-mono text-xs"
          placeholder='{"format": "framejury-run-manifest", …}'
          aria-label="Manifest"
          value={text}
          onChange={(e) => change(e.target.value)}
          data-testid="run-manifest-text"
        />
        {text.trim() !== "" && !read.ok && (
          <span role="alert" className="text-red-700" data-testid="run-manifest-problem">
            {read.error}
          </span>
        )}
        {read.ok && <ManifestSummaryList summary={read.summary} />}
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className={buttonClass("secondary")}
            disabled={!read.ok || dryRun.isPending}
            onClick={() => read.ok && dryRun.mutate(read.manifest)}
            data-testid="run-manifest-dry-run"
          >
            Dry run
          </button>
          <button
            type="button"
            className={buttonClass()}
            disabled={!read.ok || !dryRun.data || start.isPending || !!start.data}
            title={dryRun.data ? undefined : "Dry run the manifest first: it shows what the run would take."}
            onClick={() => read.ok && start.mutate(read.manifest)}
            data-testid="run-manifest-start"
          >
            Start run
          </button>
        </div>
        {dryRun.data && <ManifestDryRunNote dryRun={dryRun.data} />}
        {start.data && <ManifestRunStarted projectId={projectId} started={start.data} />}
        {(dryRun.error ?? start.error) && (
          <span role="alert" className="text-red-700">
            {(dryRun.error ?? start.error)!.message}
          </span>
        )}
      </div>
    </details>
  );
}

/** What the manifest's run would take: its videos (and those it would leave out) and its cost estimate. */
function ManifestDryRunNote({ dryRun }: { dryRun: RunDryRunAnswer }) {
  return (
    <div className="flex flex-col gap-1" data-testid="run-manifest-dry-run-result">
      <span>
        Would judge {dryRun.videos} video{dryRun.videos === 1 ? "" : "s"}
        {dryRun.withoutFramesCount > 0 && `; ${dryRun.withoutFramesCount} left out for want of their frame set`}
        {dryRun.beingDeletedCount > 0 && `; ${dryRun.beingDeletedCount} left out because they are being deleted`}.
      </span>
      {dryRun.estimate && <RunEstimateSummary estimate={dryRun.estimate} />}
      {dryRun.estimateError && <span className="text-red-700">No estimate: {dryRun.estimateError}</span>}
    </div>
  );
}

/** What the pasted manifest would run: task, endpoint, input mode, videos, edited prompts and settings. */
function ManifestSummaryList({ summary }: { summary: ManifestSummary }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-slate-700" data-testid="run-manifest-summary">
      <dt className="text-slate-500">Task</dt>
      <dd>{summary.pipeline}</dd>
      <dt className="text-slate-500">Endpoint</dt>
      <dd>{summary.endpoint}</dd>
      <dt className="text-slate-500">Input mode</dt>
      <dd>{summary.inputMode}</dd>
      <dt className="text-slate-500">Videos</dt>
      <dd>{summary.videos}</dd>
      <dt className="text-slate-500">Edited prompts</dt>
      <dd>{summary.promptVersions}</dd>
      <dt className="text-slate-500">Settings</dt>
      <dd className="break-all font-mono text-xs">{summary.settings}</dd>
    </dl>
  );
}

/** The run the manifest started: its videos and a link to it. */
function ManifestRunStarted({ projectId, started }: { projectId: string; started: { id: string; videos: number } }) {
  return (
    <span className="text-slate-600" data-testid="run-manifest-started">
      Started on {started.videos} video{started.videos === 1 ? "" : "s"}:{" "}
      <Link className="text-indigo-700 underline" href={`/projects/${projectId}/runs/${started.id}`}>
        the run
      </Link>
      .
    </span>
  );
}
