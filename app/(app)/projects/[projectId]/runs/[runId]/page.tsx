import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { RunProgress } from "@/components/judge/run-progress";
import { RunCost } from "@/components/judge/run-cost";
import { RunTitleBar } from "@/components/judge/run-title-bar";
import { EnsembleMembershipNote, PairwiseRunNote, RunPromptsAndLinks } from "@/components/judge/run-page-sections";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import { runOverview } from "@/lib/judge/runs/run-overview";
import { runResultsLinkOf } from "@/lib/task-modules/task-display";
import { labelNextCriteria } from "@/lib/label-next/label-next";
import { runNameOfRow } from "@/lib/run-records/run-name";
import { runPromptVersions } from "@/lib/prompt-versions/prompt-versions";
import { ensembleMembershipOf, ensembleRunReport } from "@/lib/ensembles/ensemble-report";
import { EnsembleSummary } from "@/components/ensembles/ensemble-summary";
import { RubricItemValuesTable } from "@/components/rubrics/rubric-item-values-table";
import { rubricItemValues, rubricItemValuesQuerySchema } from "@/lib/rubrics/rubric-item-values";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { RunMetricsLegend } from "@/components/judge/run-metrics-legend";
import { RunVideosTable } from "@/components/judge/run-videos-table";
import { ExportButtons } from "@/components/agreement/export-buttons";
import { runDownloads, runExportsWithheld } from "@/lib/export/run-downloads";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { withheldReason } from "@/lib/visibility/withheld";
import { getProject } from "@/lib/projects/projects";
import { RederiveJudgeSpans } from "@/components/judge/rederive-judge-spans";
import { rederiveJudgeSpansAction } from "@/app/(app)/judge-span-actions";
import { JudgeSpanFailures } from "@/components/judge/judge-span-failures";
import { judgeSpanFailuresOfRun } from "@/lib/spans/judge-span-failures";

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId, runId } = await params;
  const { actor, role, catalogue, access } = await requirePageProjectAccess(projectId);
  const overview = await runOverview(prisma, access, runId).catch((error: unknown) => {
    if (isAppErrorCode(error, "not_found")) notFound();
    throw error;
  });
  const { run, setup, sweepCompareUrl, metrics, videos } = overview;
  // A rubric run over items lists its items' values (filter and sort in the search params; a bad one is ignored).
  const itemQuery = rubricItemValuesQuerySchema.safeParse(searchParamsObject(await searchParams));
  const [promptVersions, ensemble, membership, itemList, project, spanFailures] = await Promise.all([
    runPromptVersions(prisma, access, runId),
    ensembleRunReport(prisma, access, runId),
    ensembleMembershipOf(prisma, runId),
    rubricItemValues(prisma, access, runId, itemQuery.success ? itemQuery.data : {}),
    getProject(prisma, access),
    judgeSpanFailuresOfRun(prisma, runId),
  ]);
  const runTask = catalogue.findTask(run.pipeline);
  // Every export of the whole run is withheld while the user reviews any of its videos blind (lib/visibility/withheld).
  const exportsWithheld = roleCan(role, "export.read") ? await runExportsWithheld(prisma, actor.userId, runId) : null;
  // A task with a verdict, or with criteria to plan on (a rubric task's), has a "what to label next".
  const canPlanLabels =
    roleCan(role, "queues.manage") &&
    !!runTask &&
    runTask.subject === "video" &&
    (!!runTask.verdict || labelNextCriteria(runTask).length > 0);
  // A task that scores the videos themselves ranks their models by any of its metrics.
  const hasLeaderboard = !!runTask && runTask.subject === "video" && runTask.metrics.length > 0;
  const resultsLink = runResultsLinkOf(catalogue, run.pipeline);
  // A task that says where its findings lie keeps judge spans with the run; an owner may derive them again.
  const canRederiveSpans = roleCan(role, "runs.manage") && !!catalogue.pipelines[run.pipeline]?.judgeSpans;
  return (
    <div className="flex flex-col gap-5">
      <RunTitleBar
        projectId={projectId}
        run={run}
        setup={setup}
        sweepCompareUrl={sweepCompareUrl}
        title={runNameOfRow(run, catalogue)}
        resultsLink={resultsLink}
      />
      <RunProgress runId={runId} canManage={roleCan(role, "runs.manage")} />
      <RunCost runId={runId} canManage={roleCan(role, "runs.manage")} manifest={!run.pairSet} />
      {ensemble && (
        <EnsembleSummary projectId={projectId} report={ensemble} canManageQueues={roleCan(role, "queues.manage")} />
      )}
      {membership && <EnsembleMembershipNote projectId={projectId} membership={membership} />}
      {run.pairSet && <PairwiseRunNote projectId={projectId} pairSet={run.pairSet} />}
      <RunPromptsAndLinks
        projectId={projectId}
        runId={runId}
        pipeline={run.pipeline}
        promptVersions={promptVersions}
        itemCount={itemList ? itemList.total : null}
        hasLeaderboard={hasLeaderboard}
        canPlanLabels={canPlanLabels}
      />
      {!run.pairSet && roleCan(role, "export.read") && (
        <section className="flex flex-col gap-1" data-testid="run-exports">
          <h2 className="text-sm font-medium text-slate-700">Export this run</h2>
          {exportsWithheld ? (
            <WithheldNotice
              message={`This run's exports are ${withheldReason(exportsWithheld)}.`}
              withheld={exportsWithheld}
            />
          ) : (
            <ExportButtons downloads={runDownloads(project, runId)} />
          )}
        </section>
      )}
      <JudgeSpanFailures projectId={projectId} failures={spanFailures} />
      {canRederiveSpans && <RederiveJudgeSpans projectId={projectId} runId={runId} action={rederiveJudgeSpansAction} />}
      {/* A pairwise run's rows are pairs, shown on its pair set's page. */}
      {!run.pairSet && (
        <>
          <RunMetricsLegend metrics={metrics} />
          <RunVideosTable projectId={projectId} runId={runId} metrics={metrics} videos={videos} />
        </>
      )}
      {itemList && <RubricItemValuesTable projectId={projectId} runId={runId} list={itemList} />}
    </div>
  );
}
