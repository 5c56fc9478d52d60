import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { RunComparisonView } from "@/components/judge/run-comparison-view";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import { compareRuns, runComparisonQuerySchema, type RunComparison } from "@/lib/run-comparison/run-comparison";
import { listRuns } from "@/lib/judge/runs/runs";
import { runNameOfRow } from "@/lib/run-records/run-name";
import { WithheldError } from "@/lib/visibility/withheld";

/** Runs of one task side by side (`?runs=a,b`; the picker sends `runs` once per run). */
export default async function CompareRunsPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { catalogue, access } = await requirePageProjectAccess(projectId, "export.read");
  const raw = (await searchParams).runs;
  const picked = (Array.isArray(raw) ? raw : raw ? [raw] : []).join(",");
  const runs = await listRuns(prisma, access);
  let comparison: RunComparison | null = null;
  let problem: string | null = null;
  let withheld: WithheldError | null = null;
  if (picked) {
    const parsed = runComparisonQuerySchema.safeParse({ runs: picked });
    if (!parsed.success) problem = parsed.error.issues.map((i) => i.message).join(" ");
    else {
      try {
        comparison = await compareRuns(prisma, access, parsed.data);
      } catch (error) {
        if (error instanceof WithheldError) withheld = error;
        else if (isAppErrorCode(error, "not_found") || isAppErrorCode(error, "invalid_request"))
          problem = error.message;
        else throw error;
      }
    }
  }
  const chosen = new Set(picked.split(","));
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Runs side by side" />
      {runs.length < 2 ? (
        <EmptyState title="Fewer than two runs">
          Start a run with a sweep (input modes or frame counts) on the Judge page, then compare its runs here.
        </EmptyState>
      ) : (
        <form method="get" className="flex flex-col gap-1 text-sm" data-testid="compare-runs-form">
          <p className="text-slate-600">Runs of one task (2–8):</p>
          {runs.map((run) => (
            <label key={run.id} className="flex items-center gap-2">
              <input type="checkbox" name="runs" value={run.id} defaultChecked={chosen.has(run.id)} />
              {run.label ?? runNameOfRow(run, catalogue)}
            </label>
          ))}
          <button type="submit" className="mt-1 w-fit rounded-md bg-indigo-600 px-3 py-1.5 text-white">
            Compare
          </button>
        </form>
      )}
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {withheld && <WithheldNotice message={withheld.message} withheld={withheld.withheld} />}
      {comparison && <RunComparisonView projectId={projectId} comparison={comparison} />}
    </div>
  );
}
