"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/lib/api-client";
import { formatCost } from "@/lib/format/numbers";
import type { RunStatusAnswer } from "@/lib/judge/runs/runs.types";

/** The parts of GET /runs/{runId}'s answer the progress reads. */
export type RunStatus = Pick<
  RunStatusAnswer,
  | "id"
  | "status"
  | "simulated"
  | "batchMode"
  | "batch"
  | "videos"
  | "steps"
  | "calls"
  | "tokens"
  | "costUsd"
  | "costUsdAtLeast"
>;

/** The run's tokens as shown: unknown (never 0) when calls were answered without `usage`. */
export function tokensLabel(s: Pick<RunStatus, "tokens" | "calls">): string {
  if (s.tokens.prompt !== null && s.tokens.completion !== null)
    return (s.tokens.prompt + s.tokens.completion).toLocaleString();
  const atLeast = s.tokens.atLeast.prompt + s.tokens.atLeast.completion;
  return atLeast > 0
    ? `≥ ${atLeast.toLocaleString()} (${s.calls.withoutUsage} calls without usage)`
    : `unknown (${s.calls.withoutUsage} calls without usage)`;
}

/** The run's cost as shown: unknown (never $0) when calls were answered without `usage`. */
export function costLabel(s: Pick<RunStatus, "costUsd" | "costUsdAtLeast" | "calls">): string {
  if (s.costUsd !== null) return formatCost(s.costUsd);
  return s.costUsdAtLeast > 0
    ? `≥ ${formatCost(s.costUsdAtLeast)} (${s.calls.withoutUsage} calls without usage)`
    : `unknown (${s.calls.withoutUsage} calls without usage)`;
}

/** Live progress of a run, polled while it is queued or running; owners can cancel it. */
export function RunProgress({
  runId,
  canManage,
  compact = false,
}: {
  runId: string;
  canManage: boolean;
  compact?: boolean;
}) {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: ["run", runId],
    queryFn: () => apiFetch<RunStatus>(`/api/v1/runs/${runId}`),
    refetchInterval: (query) =>
      query.state.data && !["queued", "running"].includes(query.state.data.status) ? false : 1000,
  });
  const cancel = useMutation({
    mutationFn: () => postJson(`/api/v1/runs/${runId}/cancel`, {}),
    onSuccess: () => {
      void refetchAfterWrite(queryClient, ["run", runId]);
      void refetchAfterWrite(queryClient, ["runs"]);
    },
  });
  const s = status.data;
  if (!s) return <p className="text-xs text-slate-500">Loading…</p>;
  const active = s.status === "queued" || s.status === "running";
  const steps = stepsProgress(s);
  const fraction = steps.total ? steps.finished / steps.total : s.status === "done" ? 1 : 0;
  return (
    <div className="flex flex-col gap-2" data-testid="run-progress" data-run-status={s.status}>
      <div className="flex items-center gap-3">
        <div
          className="h-2 flex-1 overflow-hidden rounded bg-slate-200"
          role="progressbar"
          aria-valuenow={Math.round(fraction * 100)}
          aria-label="Run progress"
        >
          <div
            className={`h-full ${s.status === "cancelled" ? "bg-slate-400" : "bg-indigo-600"}`}
            style={{ width: `${fraction * 100}%` }}
          />
        </div>
        <span className="w-20 text-right text-xs font-medium" data-testid="run-status">
          {s.status}
        </span>
        {canManage && active && (
          <button
            type="button"
            className={buttonClass("danger")}
            onClick={() => cancel.mutate()}
            disabled={cancel.isPending}
          >
            Cancel
          </button>
        )}
      </div>
      {s.batchMode && (
        <p className="text-xs text-slate-600" data-testid="run-batch">
          <span className="mr-2 rounded bg-sky-100 px-1.5 text-sky-800">batch</span>
          {s.batch
            ? `batch ${s.batch.number}: ${s.batch.status}, ${s.batch.completed}/${s.batch.total}${s.batch.failed ? ` (${s.batch.failed} failed)` : ""}${s.batch.error ? ` — ${s.batch.error}` : ""}`
            : "preparing the first batch"}
        </p>
      )}
      <dl
        className={`grid ${compact ? "grid-cols-4" : "grid-cols-4 md:grid-cols-8"} gap-x-4 gap-y-1 text-xs`}
        data-testid="run-counts"
      >
        <Stat label={steps.estimated ? "steps (estimated)" : "steps"} value={steps.label} title={steps.note} />
        <Stat label="running" value={s.steps.running} />
        <Stat label="done" value={s.steps.done} />
        <Stat label="failed" value={s.steps.failed} warn={s.steps.failed > 0} />
        <Stat label="parse failed" value={s.steps.parse_failed} warn={s.steps.parse_failed > 0} />
        {s.steps.cancelled > 0 && <Stat label="cancelled" value={s.steps.cancelled} />}
        <Stat label="calls" value={`${s.calls.total}${s.calls.cached ? ` (${s.calls.cached} cached)` : ""}`} />
        <Stat label="tokens" value={tokensLabel(s)} />
        <Stat label="cost" value={costLabel(s)} />
        {s.calls.lost > 0 && <Stat label="lost calls" value={`${s.calls.lost} lost calls, estimated`} warn />}
      </dl>
    </div>
  );
}

/**
 * The run's steps: finished and in all. A step finished is one that ran to its end (done, failed, parse failed or
 * skipped); a step cancelled did not, so a run stopped by its budget or cancelled shows what it did out of its steps,
 * never a full bar. A video's steps are planned when a worker starts it, so while videos wait the rows counted so far
 * are not the run's total: the total is then estimated from the videos started (their steps per video times every
 * video) and labelled so, rather than growing under the reader (0/99, then 156/156).
 */
export function stepsProgress(s: Pick<RunStatus, "status" | "videos" | "steps">): {
  finished: number;
  total: number;
  estimated: boolean;
  label: string;
  note?: string;
} {
  const finished = s.steps.done + s.steps.failed + s.steps.parse_failed + s.steps.skipped;
  const waiting = s.videos.queued ?? 0;
  const started = s.videos.total - waiting;
  if (!(s.status === "queued" || s.status === "running") || waiting === 0) {
    const cancelled = s.steps.cancelled;
    return {
      finished,
      total: s.steps.total,
      estimated: false,
      label: `${finished}/${s.steps.total}`,
      ...(cancelled > 0 ? { note: `${cancelled} step${cancelled === 1 ? "" : "s"} cancelled: not run` } : {}),
    };
  }
  const note = `${waiting} of ${s.videos.total} video${s.videos.total === 1 ? "" : "s"} not started: their steps are planned when they start`;
  if (started === 0 || s.steps.total === 0)
    return { finished, total: 0, estimated: true, label: `${finished}/?`, note };
  const total = Math.max(s.steps.total, Math.round((s.steps.total / started) * s.videos.total));
  return {
    finished,
    total,
    estimated: true,
    label: `${finished}/~${total}`,
    note: `${note}; about ${total} from the ${s.steps.total} steps of the ${started} started`,
  };
}

function Stat({
  label,
  value,
  warn = false,
  title,
}: {
  label: string;
  value: string | number;
  warn?: boolean;
  title?: string;
}) {
  return (
    <div title={title}>
      <dt className="text-slate-500">{label}</dt>
      <dd className={warn ? "font-medium text-red-700" : "font-medium"}>{value}</dd>
    </div>
  );
}
