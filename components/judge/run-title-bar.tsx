// The run page's header: the run's name, its judge, how it judged (input mode, aggregation, verdict threshold)
// and the links to its task's results and to every run.
import Link from "next/link";
import type { RunSetup } from "@/lib/judge/runs/run-overview";
import { runEndpointOfRow, runJudgeName } from "@/lib/run-records/run-name";

export function RunTitleBar({
  projectId,
  run,
  setup,
  sweepCompareUrl = null,
  title,
  resultsLink,
}: {
  projectId: string;
  run: {
    id: string;
    pipeline: string;
    simulated: boolean;
    batchMode: boolean;
    endpoint: { name: string; model: string | null };
    endpointSnapshot?: unknown;
    ensemble?: unknown;
  };
  setup: RunSetup;
  /** A sweep's run: the page that puts the sweep's runs side by side. */
  sweepCompareUrl?: string | null;
  title: string;
  resultsLink: { path: string; label: string; testId: string } | null;
}) {
  // The judge as the run's name reads it: the endpoint as it was at the start, or a panel's judges counted.
  const judge = runEndpointOfRow(run);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <span className="text-sm text-slate-600">
          {run.pipeline} run · {runJudgeName(judge.endpointName, judge.model)}
        </span>
        {run.simulated && (
          <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-800">
            simulated judgments (stub LLM)
          </span>
        )}
        {run.batchMode && (
          <span className="rounded bg-sky-100 px-2 py-0.5 text-xs text-sky-800">batch (Batch API, half price)</span>
        )}
        {resultsLink && (
          <Link
            href={`/projects/${projectId}${resultsLink.path}?runId=${run.id}`}
            className="ml-auto text-sm text-indigo-700 underline"
            data-testid={resultsLink.testId}
          >
            {resultsLink.label}
          </Link>
        )}
        {sweepCompareUrl && (
          <Link href={sweepCompareUrl} className="text-sm text-indigo-700 underline" data-testid="run-sweep-compare">
            the sweep&apos;s runs side by side
          </Link>
        )}
        <Link
          href={`/projects/${projectId}/judge`}
          className={`${resultsLink ? "" : "ml-auto "}text-sm text-indigo-700 underline`}
        >
          all runs
        </Link>
      </div>
      <dl className="flex flex-wrap gap-x-4 text-sm text-slate-600" data-testid="run-setup">
        <RunSetupFact label="Input mode" value={setup.inputMode} testId="run-setup-input-mode" />
        {setup.aggregation && (
          <RunSetupFact label="Aggregation" value={setup.aggregation} testId="run-setup-aggregation" />
        )}
        {setup.threshold && (
          <RunSetupFact label="Verdict threshold" value={setup.threshold} testId="run-setup-threshold" />
        )}
      </dl>
    </div>
  );
}

function RunSetupFact({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex gap-1" data-testid={testId}>
      <dt className="text-slate-500">{label}:</dt>
      <dd className="font-medium text-slate-800">{value}</dd>
    </div>
  );
}
