import Link from "next/link";
import { LinkIfAllowed } from "@/components/link-if-allowed";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { roleCan } from "@/lib/authz/permissions";
import { Card, EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { FILTER_INPUT, FilterSelect } from "@/components/ui/filter-select";
import { paperTableQuerySchema } from "@/lib/calibration/calibration.validation";
import { calibrationOptions, runOptionLabels } from "@/lib/calibration/calibration-options";
import { calibrationReport, type CalibrationReport } from "@/lib/tasks/hallucination/paper-table-load";
import { calibrationLatex, groupName } from "@/lib/tasks/hallucination/paper-table-export";
import {
  CATEGORY_TARGETS,
  HEADLINE_TARGETS,
  paperTableReads,
  type PaperCell,
} from "@/lib/tasks/hallucination/paper-table";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { searchParamsObject } from "@/lib/videos/video-filter";
import { WithheldError } from "@/lib/visibility/withheld";
import { formatInterval, formatStatistic } from "@/lib/format/numbers";

const METRICS = [
  ["precision", "P"],
  ["recall", "R"],
  ["f1", "F1"],
  ["accuracy", "Acc"],
  ["kappa", "κ"],
] as const;

function Value({ cell, metric }: { cell: PaperCell; metric: (typeof METRICS)[number][0] }) {
  const value = cell.values[metric];
  const ci = cell.ci[metric];
  return (
    <td
      className="px-2 py-1 tabular-nums"
      title={ci ? `95% interval ${ci.lower.toFixed(3)}–${ci.upper.toFixed(3)}` : undefined}
    >
      {formatStatistic(value)}
      {ci && value !== null && <div className="text-[10px] text-slate-500">{formatInterval([ci.lower, ci.upper])}</div>}
    </td>
  );
}

/** The paper's table: a label set against a hallucination run, laid out as Sora Detector's results. */
export default async function CalibrationPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { role, catalogue, access } = await requirePageProjectAccess(projectId, "export.read");
  const raw = searchParamsObject(await searchParams);
  const options = await calibrationOptions(prisma, access);
  const runs = options.runs.filter((r) => paperTableReads(catalogue.findTask(r.pipeline)));
  const runLabels = runOptionLabels(runs, catalogue);
  const chosen = { labelSetId: raw.labelSetId ?? options.labelSets[0]?.id, runId: raw.runId ?? runs[0]?.id };
  const parsed = paperTableQuerySchema.safeParse({ ...raw, ...chosen, format: "json" });
  let report: CalibrationReport | null = null;
  let problem: string | null = null;
  if (parsed.success) {
    const { format: _format, ...query } = parsed.data;
    try {
      report = await calibrationReport(prisma, access, query);
    } catch (error) {
      if (!(error instanceof NotFoundError || error instanceof ValidationError || error instanceof WithheldError))
        throw error;
      problem = error.message;
    }
  } else if (chosen.labelSetId && chosen.runId) {
    problem = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  }
  const query = new URLSearchParams(
    Object.entries({ ...raw, ...chosen }).filter(
      (e): e is [string, string] => typeof e[1] === "string" && e[0] !== "format",
    ),
  );
  const download = (format: string) => `/api/v1/projects/${projectId}/calibration?${query.toString()}&format=${format}`;

  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Paper's table" />
      {options.labelSets.length === 0 || runs.length === 0 ? (
        <NothingToCompare
          projectId={projectId}
          noLabelSet={options.labelSets.length === 0}
          canImport={roleCan(role, "videos.import")}
        />
      ) : (
        <>
          <form method="get" className="flex flex-wrap items-end gap-3 text-sm" data-testid="calibration-form">
            <FilterSelect
              label="Label set"
              name="labelSetId"
              defaultValue={chosen.labelSetId}
              options={options.labelSets.map((set) => ({ value: set.id, label: set.name }))}
              testId="calibration-label-set"
            />
            <FilterSelect
              label="Run"
              name="runId"
              defaultValue={chosen.runId}
              options={runs.map((r) => ({ value: r.id, label: `${runLabels.get(r.id)} · ${r.videos} videos` }))}
              testId="calibration-run"
            />
            <label className="flex flex-col gap-1">
              <span>Presence at score ≥</span>
              <input
                name="threshold"
                type="number"
                min={0}
                max={10}
                step={0.5}
                defaultValue={raw.threshold ?? report?.threshold}
                className={`${FILTER_INPUT} w-24`}
              />
            </label>
            <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Show</button>
            <Link href={`/projects/${projectId}/calibration/compare`} className="ml-auto text-indigo-700 underline">
              Compare judge setups
            </Link>
          </form>
          {problem && (
            <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              {problem}
            </p>
          )}
          {report && <Report report={report} download={download} />}
        </>
      )}
    </div>
  );
}

/** The paper's table for one label set and run: its summary, exports, the table by model and by category, and its LaTeX. */
function Report({ report, download }: { report: CalibrationReport; download: (format: string) => string }) {
  const overall = report.table.groups.at(-1)!;
  return (
    <>
      <p className="text-sm text-slate-600" data-testid="calibration-summary">
        {report.videos} videos labelled in <b>{report.labelSet.name}</b>
        {report.labelSet.annotator && <> (annotator {report.labelSet.annotator})</>} and judged by {report.run.model} (
        {report.run.endpoint})
        {report.labelledNotJudged > 0 && (
          <>; {report.labelledNotJudged} labelled videos the run did not judge are left out</>
        )}
        . Positive class: a hallucination present (for prompt consistency: the video departs from its prompt). The
        overall verdict is the run&apos;s own; the judge sees a category (or prompt inconsistency) when its worst score
        is at least {report.threshold}. Intervals: percentile bootstrap over videos, {report.table.bootstrap.iterations}{" "}
        resamples, seed {report.table.bootstrap.seed}.
      </p>
      <Card title="Exports">
        <div className="flex gap-3 text-sm">
          <a href={download("csv")} className="text-indigo-700 underline" data-testid="calibration-csv">
            CSV
          </a>
          <a href={download("latex")} className="text-indigo-700 underline" data-testid="calibration-latex">
            LaTeX
          </a>
          <a href={download("json")} className="text-indigo-700 underline">
            JSON
          </a>
        </div>
      </Card>
      <ModelTableCard report={report} />
      <CategoryTableCard overall={overall} />
      <Card title="LaTeX (booktabs)">
        <textarea
          readOnly
          className="h-48 w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
          value={calibrationLatex(report)}
          data-testid="calibration-latex-source"
        />
      </Card>
    </>
  );
}

/** Why there is no table yet: no label set (import one) or no hallucination run (start one). */
function NothingToCompare({
  projectId,
  noLabelSet,
  canImport,
}: {
  projectId: string;
  noLabelSet: boolean;
  canImport: boolean;
}) {
  return (
    <EmptyState title={noLabelSet ? "No label set yet" : "No hallucination run yet"}>
      {noLabelSet ? (
        <>
          Import published labels (a T2VHaluBench sheet) on the{" "}
          <LinkIfAllowed allowed={canImport} href={`/projects/${projectId}/import`}>
            Import page
          </LinkIfAllowed>
          , then compare a run with them here.
        </>
      ) : (
        <>
          Start a hallucination run on the{" "}
          <Link href={`/projects/${projectId}/judge`} className="text-indigo-700 underline">
            Judge page
          </Link>
          .
        </>
      )}
    </EmptyState>
  );
}

/** The headline targets' metrics for each generator model and overall. */
function ModelTableCard({ report }: { report: CalibrationReport }) {
  return (
    <Card title="By generator model">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="paper-table">
          <thead className="text-xs text-slate-500">
            <tr>
              <th className="px-2 py-1" rowSpan={2}>
                Model
              </th>
              {HEADLINE_TARGETS.map((t) => (
                <th key={t.id} colSpan={METRICS.length} className="border-b border-slate-200 px-2 py-1 text-center">
                  {t.label}
                </th>
              ))}
              <th className="px-2" rowSpan={2}>
                n
              </th>
            </tr>
            <tr>
              {HEADLINE_TARGETS.flatMap((t) =>
                METRICS.map(([id, label]) => (
                  <th key={`${t.id}-${id}`} className="px-2 py-1">
                    {label}
                  </th>
                )),
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {report.table.groups.map((g) => (
              <tr
                key={g.model ?? "overall"}
                data-testid="paper-table-row"
                className={g.model === null ? "font-semibold" : undefined}
              >
                <td className="px-2 py-1">{groupName(g)}</td>
                {HEADLINE_TARGETS.flatMap((t) =>
                  METRICS.map(([id]) => <Value key={`${t.id}-${id}`} cell={g.cells[t.id]!} metric={id} />),
                )}
                <td className="px-2">{g.cells.verdict!.n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

/** Each hallucination category's metrics over all videos. */
function CategoryTableCard({ overall }: { overall: CalibrationReport["table"]["groups"][number] }) {
  return (
    <Card title="Each category (all videos)">
      <table className="text-left text-sm" data-testid="category-table">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="px-2 py-1">Category</th>
            {METRICS.map(([id, label]) => (
              <th key={id} className="px-2 py-1">
                {label}
              </th>
            ))}
            <th className="px-2">n</th>
            <th className="px-2">labelled present</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {CATEGORY_TARGETS.map((t) => {
            const cell = overall.cells[t.id]!;
            return (
              <tr key={t.id}>
                <td className="px-2 py-1">{t.label}</td>
                {METRICS.map(([id]) => (
                  <Value key={id} cell={cell} metric={id} />
                ))}
                <td className="px-2">{cell.n}</td>
                <td className="px-2">{cell.counts.tp + cell.counts.fn}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Card>
  );
}
