import Link from "next/link";
import { LinkIfAllowed } from "@/components/link-if-allowed";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { ExportButtons } from "@/components/agreement/export-buttons";
import { Card, EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { FILTER_INPUT } from "@/components/ui/filter-select";
import { HarnessRunImport } from "@/components/tasks/qa/harness-run-import";
import {
  BREAKDOWN_LABELS,
  QaAccuracyCard,
  QaComparisonsCard,
  QaFramesCard,
  QaHeatmapCard,
  QaQuestionList,
} from "@/components/tasks/qa/pages/qa-results";
import { loadQaPage, type QaPageData } from "@/components/tasks/qa/pages/qa-page-data";
import { TargetLegend } from "@/components/tasks/target-legend";
import { roleCan } from "@/lib/authz/permissions";
import type { ProjectRole as Role } from "@/lib/generated/prisma/client";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { withheldReason } from "@/lib/visibility/withheld";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";
import { runDate } from "@/lib/run-records/run-name";

export default async function QaPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { role, access } = await requirePageProjectAccess(projectId);
  const data = await loadQaPage(access, await searchParams);
  const { query, problem, options, overview, withheld, listRun, list, keep, harnessSets, judgeEndpoints } = data;
  const chosen = overview.chosen;
  const labelOf = new Map(chosen.map((r) => [r.id, r.label]));
  const hasBaseline = chosen.some((r) => r.settings.textOnlyBaseline);
  const task = BUILT_IN_DECLARATIONS.taskOf("qa");

  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Video QA" />
      <p className="text-sm text-slate-600">
        How well video-LLMs answer a lab&apos;s questions about its videos (seed 004&apos;s InstructionBench
        evaluation). Import question sets on the{" "}
        <LinkIfAllowed allowed={roleCan(role, "videos.import")} href={`/projects/${projectId}/import`}>
          Import
        </LinkIfAllowed>{" "}
        page, extract each video&apos;s{" "}
        <LinkIfAllowed
          allowed={roleCan(role, "videos.import")}
          href={`/projects/${projectId}/pending?uniform=8&resize=quarter`}
        >
          uniform frames
        </LinkIfAllowed>
        , and start QA runs on the{" "}
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/judge`}>
          Judge
        </Link>{" "}
        page. Accuracy counts the questions decided correct or wrong (n); unanswerable ones (a call or the judge failed)
        are counted beside it.
      </p>
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {overview.runs.length === 0 ? (
        <EmptyState title="No QA runs yet">
          {options.questionSets === 0
            ? "Import a question set, then run a model on it from the Judge page."
            : "Run a model on a question set from the Judge page; its accuracy shows here."}
        </EmptyState>
      ) : (
        <>
          <QaRunsForm data={data} />

          {withheld ? (
            <Card title="Accuracy">
              <WithheldNotice
                message={`The accuracy of these runs is ${withheldReason(withheld)}. It is computed from every question, so it is shown once you have submitted them.`}
                withheld={withheld}
              />
            </Card>
          ) : (
            <>
              <QaAccuracyCard overview={overview} labelOf={labelOf} by={query.by} hasBaseline={hasBaseline} />

              <QaHeatmapCard overview={overview} keep={keep} />

              {overview.frames.length > 0 && <QaFramesCard overview={overview} />}

              {overview.comparisons.length > 0 && <QaComparisonsCard overview={overview} labelOf={labelOf} />}
            </>
          )}

          <QaAgreementLinks projectId={projectId} role={role} chosen={chosen} />

          <QaExports data={data} />

          {listRun && list && (
            <QaQuestionList
              projectId={projectId}
              overview={overview}
              listRun={listRun}
              list={list}
              query={query}
              options={options}
              keep={keep}
            />
          )}
          <TargetLegend task={task} title="Legend: video QA" />
        </>
      )}
      {harnessSets.length > 0 && (
        <HarnessRunImport
          projectId={projectId}
          questionSets={harnessSets}
          judgeEndpoints={judgeEndpoints}
          baselineRuns={overview.runs
            .filter((r) => r.status === "done" && (r.textOnly || r.settings.textOnlyBaseline))
            .map((r) => ({ id: r.id, label: r.label }))}
        />
      )}
    </div>
  );
}

/** The choice of compared runs and of the accuracy breakdown. */
function QaRunsForm({ data: { overview, query } }: { data: QaPageData }) {
  const chosen = overview.chosen;
  return (
    <form method="get" className="flex flex-col gap-2 text-sm" data-testid="qa-runs">
      <span className="font-medium text-slate-700">
        Runs compared (default: the latest run of each model at each frame count)
      </span>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {overview.runs.map((run) => (
          <label key={run.id} className="flex items-center gap-1">
            <input type="checkbox" name="runId" value={run.id} defaultChecked={chosen.some((c) => c.id === run.id)} />
            {run.label}
            {run.settings.textOnlyBaseline ? " + text-only" : ""} · {runDate(run.createdAt)} · {run.status}
            {run.simulated && <span className="rounded bg-amber-100 px-1 text-xs text-amber-800">simulated</span>}
          </label>
        ))}
      </div>
      <label className="flex items-center gap-2">
        Accuracy by
        <select name="by" defaultValue={query.by} className={FILTER_INPUT} data-testid="qa-by">
          {Object.entries(BREAKDOWN_LABELS).map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
        <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Apply</button>
      </label>
    </form>
  );
}

/** Where reviewers check the judge's decisions: each compared run's agreement report and a new review queue. */
function QaAgreementLinks({
  projectId,
  role,
  chosen,
}: {
  projectId: string;
  role: Role;
  chosen: QaPageData["overview"]["chosen"];
}) {
  return (
    <Card title="Reviewers and agreement">
      <p className="mb-2 text-xs text-slate-500">
        Reviewers mark any answer correct or wrong on its question&apos;s page, or in a review queue over a run&apos;s
        answers the judge decided. The agreement report compares them with the judge (κ, confusion, by category, format
        and model) and with each other.
      </p>
      <ul className="flex flex-col gap-1 text-sm" data-testid="qa-agreement-links">
        {chosen.map((run) => (
          <li key={run.id}>
            {run.label}:{" "}
            <Link
              className="text-indigo-700 underline"
              href={`/projects/${projectId}/agreement?runId=${run.id}`}
              data-testid="qa-agreement-link"
              data-run={run.id}
            >
              agreement
            </Link>
            {roleCan(role, "queues.manage") && (
              <>
                {" · "}
                <Link className="text-indigo-700 underline" href={`/projects/${projectId}/queues/new?runId=${run.id}`}>
                  new review queue
                </Link>
              </>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function QaExports({ data: { canExport, downloads, exportsWithheld } }: { data: QaPageData }) {
  if (!(canExport && (downloads.length > 0 || exportsWithheld))) return null;
  return (
    <Card title="Exports">
      {exportsWithheld && (
        <WithheldNotice
          message={`Downloads of these runs are ${withheldReason(exportsWithheld)}.`}
          withheld={exportsWithheld}
        />
      )}
      {downloads.length > 0 && <ExportButtons downloads={downloads} />}
      <p className="mt-2 text-xs text-slate-500">
        Accuracy: one row per run and group with its interval. Answers: every question of the run with the raw answer,
        the letter or the judge&apos;s decision and reason, and the baseline&apos;s.
      </p>
    </Card>
  );
}
