// The Judge page's list of runs, each with its badges (ensemble, simulated, batch) and its live progress.
import Link from "next/link";
import { compareUrlOf } from "@/lib/judge/runs/run-compare-url";
import { runNameOfRow } from "@/lib/run-records/run-name";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { RunProgress } from "./run-progress";

export interface RunRow {
  id: string;
  status: string;
  pipeline: string;
  simulated: boolean;
  batchMode: boolean;
  createdAt: string;
  /** The endpoint's name and model when the run started. */
  endpointSnapshot?: unknown;
  endpoint: { name: string; model: string };
  _count: { videos: number };
  /** Its name among the runs listed, telling it apart from them (lib/judge/runs/run-option-labels). */
  label?: string | null;
  /** An ensemble run's settings (lib/ensembles); a member run names its parent. */
  ensemble?:
    | { kind: "samples"; samples: number; temperature: number }
    | { kind: "panel"; combine: string; endpointIds: string[] }
    | null;
  parentRunId?: string | null;
  /** The runs a sweep started together share it. */
  sweepId?: string | null;
}

export function RunList({
  projectId,
  canManage,
  runs,
}: {
  projectId: string;
  canManage: boolean;
  runs: readonly RunRow[] | undefined;
}) {
  const catalogue = useTaskCatalogue();
  // Each sweep's runs in the order they were started (the list is newest first).
  const sweeps = new Map<string, string[]>();
  for (const run of [...(runs ?? [])].reverse())
    if (run.sweepId) sweeps.set(run.sweepId, [...(sweeps.get(run.sweepId) ?? []), run.id]);
  return (
    <>
      {runs?.length === 0 && <p className="text-sm text-slate-500">No runs yet.</p>}
      {(runs?.length ?? 0) >= 2 && (
        <Link
          href={`/projects/${projectId}/runs/compare`}
          className="w-fit text-sm text-indigo-700 underline"
          data-testid="runs-side-by-side-link"
        >
          Runs side by side
        </Link>
      )}
      <ul className="flex flex-col gap-3" data-testid="run-list">
        {/* An ensemble's member runs are listed on the ensemble's run page, not here. */}
        {runs
          ?.filter((run) => !run.parentRunId)
          .map((run) => (
            <li
              key={run.id}
              className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
              data-testid="run"
              data-status={run.status}
            >
              <div className="mb-2 flex flex-wrap items-center gap-3">
                <Link href={`/projects/${projectId}/runs/${run.id}`} className="font-medium text-indigo-700 underline">
                  {run.label ?? runNameOfRow(run, catalogue)}
                </Link>
                <span className="text-slate-600">{run._count.videos} videos</span>
                {run.ensemble && (
                  <span
                    className="rounded bg-violet-100 px-1.5 text-xs text-violet-800"
                    data-testid="run-ensemble-badge"
                  >
                    {run.ensemble.kind === "samples"
                      ? `${run.ensemble.samples} samples at T ${run.ensemble.temperature}`
                      : `panel of ${run.ensemble.endpointIds.length} (${run.ensemble.combine})`}
                  </span>
                )}
                {run.simulated && (
                  <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">simulated judgments</span>
                )}
                {run.sweepId && (sweeps.get(run.sweepId)?.length ?? 0) >= 2 && (
                  <Link
                    href={compareUrlOf(projectId, sweeps.get(run.sweepId)!)}
                    className="text-xs text-indigo-700 underline"
                    data-testid="run-sweep-compare"
                  >
                    its sweep side by side
                  </Link>
                )}
                {run.batchMode && (
                  <span className="rounded bg-sky-100 px-1.5 text-xs text-sky-800" data-testid="run-batch-badge">
                    batch
                  </span>
                )}
              </div>
              <RunProgress runId={run.id} canManage={canManage} compact />
            </li>
          ))}
      </ul>
    </>
  );
}
