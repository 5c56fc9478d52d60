/** The agreement report as the Agreement page shows it: the summary stats, then either the table by target kind or every chart, table and breakdown. */
import { Fragment } from "react";
import { AgreementCharts } from "@/components/agreement/agreement-charts";
import { PresenceSweep } from "@/components/agreement/presence-sweep";
import { JudgmentsCountedStat, Stat } from "@/components/agreement/stat-card";
import { fmt, fmtCi, videoListHref } from "@/components/agreement/links";
import { formatPercent } from "@/lib/format/numbers";
import { Card, EmptyState } from "@/components/empty-state";
import { BREAKDOWNS, type AgreementReport, type Breakdown, type StatBlock } from "@/lib/agreement/types";

const BREAKDOWN_TITLES: Record<Breakdown, string> = {
  category: "Category",
  dimension: "VBench dimension",
  model: "Model (of the video or the judged item)",
  endpoint: "Judge endpoint",
  promptVersion: "Prompt version",
};

/** Statistics whose value is a proportion and reads as a percentage; every other one as a statistic. */
const PERCENT_STATS = new Set(["percentAgreement"]);

function cell(block: StatBlock | undefined, name: string) {
  if (!block) return <td className="px-2 py-1 text-slate-500">—</td>;
  const ci = block.ci[name];
  const value = block.values[name];
  return (
    <td className="px-2 py-1 tabular-nums">
      {PERCENT_STATS.has(name) ? formatPercent(value) : fmt(value)}{" "}
      {ci && <span className="text-xs text-slate-500">{fmtCi(ci)}</span>}
    </td>
  );
}

/** The page opens on the summary; `?view=details` shows every table and chart (one click, a link). */
export type AgreementView = "summary" | "details";

/** One row per target kind: how the judge agrees with the reviewers' consensus, and the reviewers with each other. */
function SummaryTable({ report }: { report: AgreementReport }) {
  const c = report.humanVsJudge.consensus;
  const h = report.humanVsHuman;
  const kinds = report.confusionKinds.filter((k) => k.id !== "all");
  const rows = [
    ...kinds.map((k) => ({
      id: k.id,
      label: k.label,
      judge: c.native[k.id],
      kappa: c.native[k.id]?.values.kappaQuadratic ?? null,
      humans: h.native[k.id],
    })),
    {
      id: "all",
      label: "All targets, binarised",
      judge: c.binary as StatBlock,
      kappa: c.binary.values.kappa ?? null,
      humans: h.binary,
    },
  ];
  return (
    <Card title="Agreement by target kind">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="agreement-kind-summary">
          <thead className="text-xs text-slate-600">
            <tr>
              <th className="px-2 py-1">target kind</th>
              <th className="px-2 py-1">n judge · consensus</th>
              <th className="px-2 py-1">κ judge vs consensus</th>
              <th className="px-2 py-1">α judge vs consensus</th>
              <th className="px-2 py-1">n with ≥ 2 reviewers</th>
              <th className="px-2 py-1">α among reviewers</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.id} data-testid="kind-summary-row" data-kind={r.id}>
                <td className="px-2 py-1 font-medium">{r.label}</td>
                <td className="px-2 py-1 tabular-nums">{r.judge?.n ?? 0}</td>
                <td className="px-2 py-1 tabular-nums">{fmt(r.kappa)}</td>
                <td className="px-2 py-1 tabular-nums">{fmt(r.judge?.values.alpha)}</td>
                <td className="px-2 py-1 tabular-nums">{r.humans?.n ?? 0}</td>
                <td className="px-2 py-1 tabular-nums">{fmt(r.humans?.values.alpha)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-2 text-xs text-slate-600">
        κ: quadratic-weighted Cohen&apos;s κ on each kind&apos;s own scale (for yes/no kinds the plain κ); the last row
        binarises every target. α: Krippendorff&apos;s α at the kind&apos;s measurement level.
      </p>
    </Card>
  );
}

function ViewTabs({ view, viewHref }: { view: AgreementView; viewHref: (view: AgreementView) => string }) {
  const tab = (v: AgreementView, label: string) =>
    v === view ? (
      <span aria-current="page" className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white">
        {label}
      </span>
    ) : (
      <a
        href={viewHref(v)}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-indigo-700"
        data-testid={`agreement-view-${v}`}
      >
        {label}
      </a>
    );
  return (
    <nav aria-label="Agreement views" className="flex gap-2 text-sm">
      {tab("summary", "Summary")}
      {tab("details", "Details: charts, tables and breakdowns")}
    </nav>
  );
}

export function Report({
  projectId,
  report,
  filterParams,
  fileNames,
  view,
  viewHref,
}: {
  projectId: string;
  report: AgreementReport;
  filterParams: string;
  fileNames: Record<string, string>;
  view: AgreementView;
  viewHref: (view: AgreementView) => string;
}) {
  const s = report.summary;
  const c = report.humanVsJudge.consensus;
  if (report.runs.length === 0) {
    return (
      <EmptyState title="No judge runs yet">
        Run a judge on the project&apos;s videos; reviewers then check its scores and the agreement shows here.
      </EmptyState>
    );
  }
  return (
    <>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-7" data-testid="agreement-summary">
        <Stat label="videos" value={String(s.videos)} testId="summary-videos" />
        <Stat label="judged targets" value={String(s.judgeItems)} />
        <Stat label="reviewed targets" value={String(s.reviewedItems)} testId="summary-reviewed" />
        <Stat label="judgments" value={String(s.judgments)} />
        <Stat label="reviewers" value={String(s.reviewers)} />
        <JudgmentsCountedStat independentOnly={report.independentOnly !== false} />
        <Stat
          label="κ judge vs consensus"
          value={fmt(c.binary.values.kappa)}
          ci={fmtCi(c.binary.ci.kappa)}
          testId="summary-kappa"
        />
        <Stat
          label="accuracy (binarised)"
          value={fmt(c.binary.values.accuracy)}
          ci={fmtCi(c.binary.ci.accuracy)}
          testId="summary-accuracy"
        />
      </div>
      {s.judgments > 0 && <ViewTabs view={view} viewHref={viewHref} />}
      {s.judgments === 0 ? (
        <EmptyState title="No human judgments yet">
          Nothing to compare: reviewers have not judged any of these {s.judgeItems} targets. Open a{" "}
          <a
            className="text-indigo-700 underline"
            href={videoListHref(projectId, Object.fromEntries(new URLSearchParams(filterParams)))}
          >
            video
          </a>{" "}
          and give your own values; the agreement statistics appear here.
        </EmptyState>
      ) : view === "summary" ? (
        <SummaryTable report={report} />
      ) : (
        <>
          <AgreementCharts projectId={projectId} report={report} fileNames={fileNames} />
          {report.presence.length > 0 && (
            <Card title="Presence labels vs the judge's scores (threshold sweep)">
              <PresenceSweep reports={report.presence} />
            </Card>
          )}
          <JudgeVsHumansCard report={report} />
          <AmongReviewersCard report={report} />
          <BreakdownCards projectId={projectId} report={report} />
        </>
      )}
    </>
  );
}

/** The reviewed per-subject metrics of the tasks in scope (say a verdict and an overall score), as the report names them. */
const metricKindsOf = (report: AgreementReport) =>
  report.confusionKinds.filter((k) => k.id !== "score" && k.id !== "all");

function JudgeVsHumansCard({ report }: { report: AgreementReport }) {
  const c = report.humanVsJudge.consensus;
  const numericMetricKinds = metricKindsOf(report).filter((k) => !k.listKeys);
  return (
    <Card title="Judge vs humans">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="judge-vs-humans">
          <thead className="text-xs text-slate-600">
            <tr>
              <th className="px-2 py-1">vs</th>
              <th>n</th>
              <th>accuracy</th>
              <th>κ</th>
              <th>F1</th>
              <th>precision</th>
              <th>recall</th>
              <th>scores: Spearman</th>
              <th>τ-b</th>
              <th>κ quadratic</th>
              <th>MAE</th>
              <th>α ordinal</th>
              {numericMetricKinds.map((k) => (
                <th key={k.id}>{k.label}: MAE</th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {[
              { label: "reviewers' consensus", labelSet: undefined, gold: false, ...c },
              ...(report.humanVsJudge.gold
                ? [{ label: "gold (adjudicated)", labelSet: undefined, gold: true, ...report.humanVsJudge.gold }]
                : []),
              ...report.humanVsJudge.reviewers.map((r) => ({ ...r, gold: false })),
            ].map((r) => (
              <tr
                key={r.label}
                data-testid={r.labelSet ? "label-set-annotator" : r.gold ? "gold-annotator" : undefined}
              >
                <td className="px-2 py-1 font-medium">
                  {r.label}
                  {r.labelSet && (
                    <span className="ml-1 rounded bg-indigo-50 px-1 text-xs font-normal text-indigo-700">
                      label set
                    </span>
                  )}
                  {r.gold && (
                    <span className="ml-1 rounded bg-amber-50 px-1 text-xs font-normal text-amber-800">
                      owners&apos; gold
                    </span>
                  )}
                </td>
                <td>{r.n}</td>
                {cell(r.binary, "accuracy")}
                {cell(r.binary, "kappa")}
                {cell(r.binary, "f1")}
                {cell(r.binary, "precision")}
                {cell(r.binary, "recall")}
                {cell(r.native.score, "spearman")}
                {cell(r.native.score, "kendallTauB")}
                {cell(r.native.score, "kappaQuadratic")}
                {cell(r.native.score, "mae")}
                {cell(r.native.score, "alpha")}
                {numericMetricKinds.map((k) => (
                  <Fragment key={k.id}>{cell(r.native[k.id], "mae")}</Fragment>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function AmongReviewersCard({ report }: { report: AgreementReport }) {
  const metricKinds = metricKindsOf(report);
  return (
    <Card title={`Among reviewers (${report.humanVsHuman.items} targets rated by two or more)`}>
      {report.humanVsHuman.items === 0 ? (
        <p className="text-sm text-slate-500">No target has two reviewers yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="among-reviewers">
            <thead className="text-xs text-slate-600">
              <tr>
                <th className="px-2 py-1">targets</th>
                <th>n</th>
                <th>Krippendorff α</th>
                <th>Fleiss κ</th>
                <th>% agreement</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {[
                ["all, binarised", report.humanVsHuman.binary] as const,
                ["scores", report.humanVsHuman.native.score] as const,
                ...metricKinds.map((k) => [k.label.toLowerCase(), report.humanVsHuman.native[k.id]] as const),
              ].map(([label, b]) => (
                <tr key={label}>
                  <td className="px-2 py-1">{label}</td>
                  <td>{b?.n ?? 0}</td>
                  {cell(b, "alpha")}
                  {cell(b, "fleiss")}
                  {cell(b, "percentAgreement")}
                </tr>
              ))}
            </tbody>
          </table>
          {report.humanVsHuman.pairs.length > 0 && (
            <table className="mt-4 w-full text-left text-sm">
              <thead className="text-xs text-slate-600">
                <tr>
                  <th className="px-2 py-1">pair</th>
                  <th>n</th>
                  <th>Cohen κ (binarised)</th>
                  <th>% agreement</th>
                  <th>scores: κ quadratic</th>
                  <th>Spearman</th>
                  <th>MAE</th>
                  <th>presence: κ</th>
                  <th>presence %</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {report.humanVsHuman.pairs.map((p) => (
                  <tr key={`${p.a}:${p.b}`}>
                    <td className="px-2 py-1">
                      {p.labelA} · {p.labelB}
                    </td>
                    <td>{p.binary.n}</td>
                    {cell(p.binary, "kappa")}
                    {cell(p.binary, "percentAgreement")}
                    {cell(p.score, "kappaQuadratic")}
                    {cell(p.score, "spearman")}
                    {cell(p.score, "mae")}
                    {cell(p.presence, "kappa")}
                    {cell(p.presence, "percentAgreement")}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </Card>
  );
}

/** The fixed breakdowns, then each grouping the tasks in scope declare (say a type of item). */
function BreakdownCards({ projectId, report }: { projectId: string; report: AgreementReport }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {[
        ...BREAKDOWNS.map((by) => ({ by: by as string, title: BREAKDOWN_TITLES[by] })),
        ...report.groupings.map((g) => ({ by: g.id, title: g.label })),
      ].map(({ by, title }) => (
        <Card key={by} title={`By ${title.toLowerCase()}`}>
          <table className="w-full text-left text-sm" data-testid={`breakdown-${by}`}>
            <thead className="text-xs text-slate-600">
              <tr>
                <th className="px-2 py-1">{title}</th>
                <th>n</th>
                <th>accuracy</th>
                <th>κ</th>
                <th>F1</th>
                <th>humans %</th>
                {by === "category" && (
                  <th title="Krippendorff's α of the judge and the reviewers at the target's declared level">
                    α (level)
                  </th>
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {(report.breakdowns[by] ?? []).map((g) => (
                <tr key={g.key} data-testid="breakdown-row" data-key={g.key}>
                  <td className="max-w-48 truncate px-2 py-1" title={g.key}>
                    {g.link ? (
                      <a href={videoListHref(projectId, g.link)} className="text-indigo-700 underline">
                        {g.label}
                      </a>
                    ) : (
                      g.label
                    )}
                  </td>
                  <td>{g.judge.n}</td>
                  {cell(g.judge, "accuracy")}
                  {cell(g.judge, "kappa")}
                  {cell(g.judge, "f1")}
                  {cell(g.humans, "percentAgreement")}
                  {by === "category" && (
                    <td className="px-2 py-1 tabular-nums" data-testid="breakdown-alpha">
                      {fmt(g.judge.values.alpha ?? null)}{" "}
                      {g.level && <span className="text-xs text-slate-500">{g.level}</span>}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      ))}
    </div>
  );
}
