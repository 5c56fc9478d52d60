"use client";

// The run page's cost: the estimate made at its start against what its calls used, its budget (a run its budget
// stopped says so, and an owner resumes it with a higher one), and the run's manifest to download.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/lib/api-client";
import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { formatCost } from "@/lib/format/numbers";
import { costLabel, type RunStatus } from "./run-progress";
import type { RunStatusAnswer } from "@/lib/judge/runs/runs.types";
import { RunEstimateSummary } from "./run-estimate";

/** The parts of GET /runs/{runId}'s answer the cost reads. */
export type RunCostStatus = RunStatus &
  Pick<RunStatusAnswer, "budgetUsd" | "stopReason" | "callsInFlightAtStop" | "ensemble" | "estimate">;

/** Used against estimated, as "used / estimated (ratio)"; "unknown" when the usage is not known. */
export function againstEstimate(used: number | null, estimated: number | null, format: (n: number) => string) {
  if (used === null) return "unknown";
  if (estimated === null || estimated === 0) return format(used);
  return `${format(used)} of ${format(estimated)} estimated (${Math.round((used / estimated) * 100)}%)`;
}

export function RunCost({
  runId,
  canManage,
  manifest = true,
}: {
  runId: string;
  canManage: boolean;
  /** False for a pairwise run: a manifest starts a run over videos, and a pairwise run starts from its pair set. */
  manifest?: boolean;
}) {
  const status = useQuery({
    queryKey: ["run", runId],
    queryFn: () => apiFetch<RunCostStatus>(`/api/v1/runs/${runId}`),
    refetchInterval: (query) =>
      query.state.data && !["queued", "running"].includes(query.state.data.status) ? false : 1000,
  });
  const s = status.data;
  if (!s) return null;
  const stopped = s.status === "cancelled" && s.stopReason === "budget";
  const count = (n: number) => n.toLocaleString();
  const paidCalls = s.calls.total - s.calls.cached;
  return (
    <section className="flex flex-col gap-2 text-sm" data-testid="run-cost">
      {stopped && (
        <p role="status" className="font-medium text-amber-800" data-testid="run-budget-stopped">
          stopped: budget reached ({costLabel(s)} of {formatCost(s.budgetUsd)}
          {s.ensemble ? " for each member" : ""})
          {s.callsInFlightAtStop !== null &&
            `: no call started after it; at most the ${s.callsInFlightAtStop} calls in flight then spent past it`}
        </p>
      )}
      {s.budgetUsd !== null && !stopped && (
        <p className="text-xs text-slate-600" data-testid="run-budget">
          Budget {formatCost(s.budgetUsd)}
          {s.ensemble ? " for each member" : ""}: {costLabel(s)} spent.
        </p>
      )}
      {stopped && canManage && (
        // Above the budget that stopped it and its spend (an ensemble's budget is each member's: the server checks theirs).
        <ResumeForm runId={runId} leastUsd={Math.max(s.ensemble ? 0 : s.costUsdAtLeast, s.budgetUsd ?? 0)} />
      )}
      {s.estimate ? (
        <div className="flex flex-col gap-1">
          <RunEstimateSummary estimate={s.estimate} />
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs md:grid-cols-4" data-testid="run-estimate-vs-usage">
            <Usage label="paid calls" value={againstEstimate(paidCalls, s.estimate.calls, count)} />
            <Usage label="input tokens" value={againstEstimate(s.tokens.prompt, s.estimate.inputTokens, count)} />
            <Usage label="output tokens" value={againstEstimate(s.tokens.completion, s.estimate.outputTokens, count)} />
            <Usage label="cost" value={againstEstimate(s.costUsd, s.estimate.costUsd, (n) => formatCost(n))} />
          </dl>
        </div>
      ) : (
        <p className="text-xs text-slate-500">No cost estimate was made when this run started.</p>
      )}
      {manifest && (
        <a
          href={`/api/v1/runs/${runId}/manifest`}
          download={`run-${runId}-manifest.json`}
          className="self-start text-xs text-indigo-700 underline"
          data-testid="run-manifest-link"
        >
          Download the run manifest (JSON: run it again from it)
        </a>
      )}
    </section>
  );
}

function Usage({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}

/** A higher budget for a run its budget stopped: its unfinished videos are judged again. */
function ResumeForm({ runId, leastUsd }: { runId: string; leastUsd: number }) {
  const queryClient = useQueryClient();
  const [budget, setBudget] = useState("");
  const resume = useMutation({
    mutationFn: () => postJson(`/api/v1/runs/${runId}/resume`, { budgetUsd: Number(budget) }),
    onSuccess: () => {
      void refetchAfterWrite(queryClient, ["run", runId]);
      void refetchAfterWrite(queryClient, ["runs"]);
    },
  });
  const value = Number(budget);
  const valid = budget.trim() !== "" && Number.isFinite(value) && value > leastUsd;
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-xs"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) resume.mutate();
      }}
    >
      <label className="flex flex-col gap-1">
        New budget (USD, above {formatCost(leastUsd)})
        <input
          className="w-28 rounded-md border border-slate-300 px-2 py-1"
          inputMode="decimal"
          value={budget}
          onChange={(e) => setBudget(e.target.value)}
          data-testid="run-resume-budget"
        />
      </label>
      <button className={buttonClass()} disabled={!valid || resume.isPending} data-testid="run-resume">
        Raise budget and resume
      </button>
      {resume.error && (
        <span role="alert" className="text-red-700">
          {resume.error.message}
        </span>
      )}
    </form>
  );
}
