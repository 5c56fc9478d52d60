import { requirePageProjectAccess } from "@/app/_server/actor";
import { ExportButtons } from "@/components/agreement/export-buttons";
import { AgreementFilterForm } from "@/components/agreement/agreement-filter-form";
import { loadAgreementPage } from "@/components/agreement/agreement-page-data";
import { type AgreementView, Report } from "@/components/agreement/agreement-report";
import { HfSplitExportForm } from "@/components/agreement/hf-split-export-form";
import { loadSpanAgreementSection } from "@/components/agreement/span-agreement-data";
import { SpanAgreementSection } from "@/components/agreement/span-agreement-section";
import { judgeSpanRuns, SpanExportLinks } from "@/components/label-sets/span-export-links";
import { Card } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { searchParamsObject } from "@/lib/videos/video-filter";

export default async function AgreementPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { catalogue, access } = await requirePageProjectAccess(projectId, "export.read");
  const raw = searchParamsObject(await searchParams);
  const data = await loadAgreementPage(access, catalogue, raw);
  const { problem, withheld, downloads, filterRun, runWithheld, splitFields, report, filterParams, fileNames, view } =
    data;
  // Where (spans): the spans of the task the filters read, its judge the filtered run when one is named.
  const spans = await loadSpanAgreementSection(access, catalogue, data.task.id, data.query.runId);

  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Agreement" />
      <AgreementFilterForm data={data} raw={raw} catalogue={catalogue} />
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {withheld && <WithheldNotice message={withheld.message} withheld={withheld.withheld} />}
      <Card title="Exports">
        {withheld ? (
          <p className="text-sm text-slate-600">The exports are withheld with the report.</p>
        ) : (
          <ExportButtons downloads={downloads} />
        )}
        <p className="mt-2 text-xs text-slate-500">
          Items: one row per judge score, verdict and overall of the filtered videos, with each reviewer&apos;s value,
          note and reason. Report: every statistic below with its 95% interval. Span agreement: the Where (spans)
          section&apos;s figures, one row per label, comparison and statistic. Hugging Face dataset and Label Studio:
          the whole run the filters read, in those tools&apos; formats.
        </p>
        {filterRun && !withheld && !runWithheld && (
          <HfSplitExportForm projectId={projectId} runId={filterRun.id} metadataFields={splitFields} />
        )}
        {!withheld && (
          <SpanExportLinks
            projectId={projectId}
            runs={judgeSpanRuns(data.runs, data.query.runId, catalogue.declarations())}
          />
        )}
      </Card>
      <SpanAgreementSection report={spans.report} problem={spans.problem} />
      {report && (
        <Report
          projectId={projectId}
          report={report}
          filterParams={filterParams}
          fileNames={fileNames}
          view={view}
          viewHref={(v) => agreementViewHref(projectId, raw, v)}
        />
      )}
    </div>
  );
}

/** This page's URL with the same filters and another view. */
function agreementViewHref(projectId: string, raw: Record<string, string>, view: AgreementView): string {
  const search = new URLSearchParams(Object.entries(raw).filter(([k]) => k !== "view" && k !== "format"));
  if (view === "details") search.set("view", "details");
  const query = search.toString();
  return `/projects/${projectId}/agreement${query ? `?${query}` : ""}`;
}
