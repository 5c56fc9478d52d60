"use client";

import { useMemo, useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import {
  type AgreementReport,
  type ConfusionCell,
  type ConfusionKind,
  type ConfusionView,
  type SweepMetric,
  WORST_TARGET,
} from "@/lib/agreement/types";
import { runName } from "@/lib/run-records/run-name";
import { fmt, fmtCi, videoHref, videoListHref, yesNo } from "./links";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { type LegendEntry } from "@/components/charts/chart-legend";
import { ChartFrame } from "@/components/charts/chart-frame";

/** The sweep's lines: F1 with dots (a dot opens the videos flagged at its threshold), the rest plain. */
const SWEEP_LINES: readonly (LegendEntry & { key: "f1" | "precision" | "recall" | "kappa" })[] = [
  { key: "f1", name: "f1", color: "#4f46e5" },
  { key: "precision", name: "precision", color: "#0891b2" },
  { key: "recall", name: "recall", color: "#d97706" },
  { key: "kappa", name: "kappa", color: "#64748b", dash: "3 3" },
];

function cellColor(count: number, max: number, agree: boolean): string {
  const share = max === 0 ? 0 : count / max;
  const alpha = 0.08 + 0.8 * share;
  return agree ? `rgba(16, 120, 90, ${alpha})` : `rgba(200, 60, 40, ${alpha})`;
}

/** The video list link of a verdict cell (its filters read one run); other kinds have none exactly. */
function cellListHref(projectId: string, kind: ConfusionKind, cell: ConfusionCell, runId: string): string | null {
  if (!kind.listKeys) return null;
  return videoListHref(projectId, {
    runId,
    [kind.listKeys.judge]: yesNo(cell.judge),
    [kind.listKeys.human]: yesNo(cell.human),
  });
}

/**
 * One cell of the confusion matrix: its count on a square shaded by its share; a link to the video list when the
 * kind has list filters, else a button that shows the cell's videos below the matrix.
 */
function HeatMapCell({
  projectId,
  kind,
  cell,
  at,
  size,
  fill,
  selected,
  onSelect,
}: {
  projectId: string;
  kind: ConfusionKind;
  cell: ConfusionCell;
  at: { x: number; y: number };
  size: number;
  fill: string;
  selected: boolean;
  onSelect: () => void;
}) {
  const { x, y } = at;
  const runId = cell.runs[0]?.runId;
  const href = runId ? cellListHref(projectId, kind, cell, runId) : null;
  const body = (
    <>
      <rect
        x={x + 2}
        y={y + 2}
        width={size - 4}
        height={size - 4}
        rx={6}
        fill={fill}
        stroke={selected ? "#1e1b4b" : "none"}
        strokeWidth={2}
      />
      <text
        x={x + size / 2}
        y={y + size / 2 + 8}
        textAnchor="middle"
        fontSize={24}
        fontWeight={600}
        className="fill-slate-900"
      >
        {cell.count}
      </text>
    </>
  );
  const label = `humans ${yesNo(cell.human)}, judge ${yesNo(cell.judge)}: ${cell.count}`;
  return href ? (
    <a href={href} aria-label={label} data-testid={`confusion-cell-${kind.id}-${cell.human}${cell.judge}`}>
      <title>{`${label} — open these videos`}</title>
      {body}
    </a>
  ) : (
    <g
      role="button"
      tabIndex={0}
      aria-label={label}
      className="cursor-pointer"
      onClick={onSelect}
      onKeyDown={(e) => e.key === "Enter" && onSelect()}
      data-testid={`confusion-cell-${kind.id}-${cell.human}${cell.judge}`}
    >
      <title>{`${label} — show these videos`}</title>
      {body}
    </g>
  );
}

/** The 2×2 confusion matrix of one kind, and the videos of the chosen cell (else the first disagreeing one). */
function ConfusionHeatMap({
  projectId,
  view,
  kind,
  fileNames,
  runNames,
}: {
  projectId: string;
  view: ConfusionView;
  kind: ConfusionKind;
  fileNames: Record<string, string>;
  runNames: Record<string, string>;
}) {
  const [selected, setSelected] = useState<number | null>(null);
  const max = Math.max(0, ...view.cells.map((c) => c.count));
  const size = 110;
  const origin = { x: 110, y: 40 };
  const position = (cell: ConfusionCell) => ({
    x: origin.x + (cell.judge === 1 ? 0 : size),
    y: origin.y + (cell.human === 1 ? 0 : size),
  });
  const chosen = selected === null ? null : view.cells[selected]!;
  return (
    <div className="flex flex-col gap-2">
      <ChartFrame title={`Confusion matrix, ${kind.label}`}>
        <svg
          viewBox={`0 0 ${origin.x + 2 * size + 10} ${origin.y + 2 * size + 10}`}
          className="w-full max-w-sm"
          // A group, not an image: its cells are links and buttons (axe: an image's children are hidden from assistive tech).
          role="group"
          aria-label={`Confusion matrix, ${kind.label}`}
          data-testid={`confusion-${kind.id}`}
        >
          <text x={origin.x + size} y={14} textAnchor="middle" fontSize={12} className="fill-slate-700">
            judge
          </text>
          <text x={origin.x + size / 2} y={32} textAnchor="middle" fontSize={11} className="fill-slate-600">
            {kind.positive}
          </text>
          <text x={origin.x + 1.5 * size} y={32} textAnchor="middle" fontSize={11} className="fill-slate-600">
            {kind.negative}
          </text>
          <text x={8} y={origin.y + size / 2} fontSize={11} className="fill-slate-600">
            humans: yes
          </text>
          <text x={8} y={origin.y + 1.5 * size} fontSize={11} className="fill-slate-600">
            humans: no
          </text>
          {view.cells.map((cell, i) => (
            <HeatMapCell
              key={i}
              projectId={projectId}
              kind={kind}
              cell={cell}
              at={position(cell)}
              size={size}
              fill={cellColor(cell.count, max, cell.human === cell.judge)}
              selected={selected === i}
              onSelect={() => setSelected(i)}
            />
          ))}
        </svg>
      </ChartFrame>
      <CellVideos
        projectId={projectId}
        kind={kind}
        fileNames={fileNames}
        runNames={runNames}
        cell={chosen ?? view.cells.find((c) => c.count > 0 && c.human !== c.judge) ?? null}
      />
    </div>
  );
}

function CellVideos({
  projectId,
  kind,
  cell,
  fileNames,
  runNames,
}: {
  projectId: string;
  kind: ConfusionKind;
  cell: ConfusionCell | null;
  fileNames: Record<string, string>;
  runNames: Record<string, string>;
}) {
  if (!cell || cell.count === 0) return null;
  return (
    <div className="text-xs text-slate-600" data-testid="cell-videos">
      <p className="mb-1">
        Humans {yesNo(cell.human)}, judge {yesNo(cell.judge)} ({cell.count}):{" "}
        {cell.runs.map((r) => {
          const href = cellListHref(projectId, kind, cell, r.runId);
          return href ? (
            <a key={r.runId} href={href} className="mr-2 text-indigo-700 underline">
              {runNames[r.runId] ?? "a run no longer in scope"} ({r.count})
            </a>
          ) : null;
        })}
      </p>
      <p className="flex flex-wrap gap-x-2">
        {cell.videos.map((v) => (
          <a
            key={`${v.runId}:${v.videoId}`}
            href={videoHref(projectId, v.videoId, v.runId)}
            className="text-indigo-700 underline"
            data-testid="cell-video"
          >
            {fileNames[v.videoId] ?? "a video"}
          </a>
        ))}
        {cell.count > cell.videos.length && <span>…</span>}
      </p>
    </div>
  );
}

/** A deterministic jitter in ±0.2, so repeated values spread without moving between renders. */
function jitter(i: number, salt: number): number {
  const x = Math.sin(i * 12.9898 + salt * 78.233) * 43758.5453;
  return (x - Math.floor(x) - 0.5) * 0.4;
}

function JudgeHumanScatter({ projectId, report }: { projectId: string; report: AgreementReport }) {
  const data = useMemo(
    () => report.scatter.points.map((p, i) => ({ ...p, x: p.judge + jitter(i, 1), y: p.human + jitter(i, 2) })),
    [report.scatter.points],
  );
  if (data.length === 0) return <p className="text-sm text-slate-500">No reviewed scores yet.</p>;
  return (
    <div data-testid="chart-scatter">
      <ChartFrame title="Judge vs reviewers' consensus, per score">
        <ResponsiveContainer width="100%" height={300}>
          <ScatterChart margin={{ top: 10, right: 10, bottom: 20, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="x"
              domain={[-0.5, 10.5]}
              ticks={[0, 2, 4, 6, 8, 10]}
              name="judge"
              label={{ value: "judge", position: "insideBottom", offset: -10 }}
            />
            <YAxis
              type="number"
              dataKey="y"
              domain={[-0.5, 10.5]}
              ticks={[0, 2, 4, 6, 8, 10]}
              name="humans"
              label={{ value: "reviewers' consensus", angle: -90, position: "insideLeft" }}
            />
            <ReferenceLine
              segment={[
                { x: 0, y: 0 },
                { x: 10, y: 10 },
              ]}
              stroke="#94a3b8"
            />
            <Tooltip
              content={({ payload }) => {
                const p = payload?.[0]?.payload as (typeof data)[number] | undefined;
                return p ? (
                  <div className="rounded border border-slate-200 bg-white px-2 py-1 text-xs shadow">
                    {p.category} #{p.scopeIndex ?? 0}: judge {p.judge}, humans {p.human} (click to open)
                  </div>
                ) : null;
              }}
            />
            <Scatter
              data={data}
              fill="#4f46e5"
              fillOpacity={0.55}
              className="cursor-pointer"
              onClick={(_, index) => {
                const p = data[index];
                if (p) window.location.assign(videoHref(projectId, p.videoId, p.runId));
              }}
            />
          </ScatterChart>
        </ResponsiveContainer>
      </ChartFrame>
      {report.scatter.total > data.length && (
        <p className="text-xs text-slate-500">
          {data.length} of {report.scatter.total} reviewed scores shown.
        </p>
      )}
    </div>
  );
}

type BarStat = "accuracy" | "kappa" | "f1";

function CategoryBars({ projectId, report }: { projectId: string; report: AgreementReport }) {
  const [stat, setStat] = useState<BarStat>("accuracy");
  const groups = report.breakdowns.category;
  const data = groups.map((g) => {
    const value = g.judge.values[stat] ?? null;
    const ci = g.judge.ci[stat] ?? null;
    return {
      label: g.label,
      value: value ?? 0,
      defined: value !== null,
      n: g.judge.n,
      error: value !== null && ci ? [Math.max(0, value - ci[0]), Math.max(0, ci[1] - value)] : [0, 0],
      ci,
      link: g.link,
    };
  });
  if (data.length === 0) return <p className="text-sm text-slate-500">No reviewed targets yet.</p>;
  return (
    <div data-testid="chart-categories">
      <div className="mb-2 flex gap-2 text-xs">
        {(["accuracy", "kappa", "f1"] as const).map((s) => (
          <button
            key={s}
            type="button"
            onClick={() => setStat(s)}
            className={`rounded px-2 py-1 ${stat === s ? "bg-indigo-600 text-white" : "bg-slate-100"}`}
          >
            {s === "f1" ? "F1" : s}
          </button>
        ))}
      </div>
      {/* Horizontal bars, one row per category: long category names get a row each instead of
          overlapping as slanted ticks under narrow columns. */}
      <ChartFrame title={`Agreement per category, ${stat === "f1" ? "F1" : stat} (95% CI)`}>
        <ResponsiveContainer width="100%" height={Math.max(160, 40 + data.length * 26)}>
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" domain={stat === "kappa" ? [-1, 1] : [0, 1]} fontSize={11} />
            <YAxis
              type="category"
              dataKey="label"
              interval={0}
              width={170}
              fontSize={11}
              tickFormatter={(label: string) => (label.length > 26 ? `${label.slice(0, 25)}…` : label)}
            />
            <Tooltip
              content={({ payload }) => {
                const d = payload?.[0]?.payload as (typeof data)[number] | undefined;
                return d ? (
                  <div className="rounded border border-slate-200 bg-white px-2 py-1 text-xs shadow">
                    {d.label}: {d.defined ? fmt(d.value) : "undefined"} {fmtCi(d.ci)} (n = {d.n})
                    {d.link ? " — click for the videos" : ""}
                  </div>
                ) : null;
              }}
            />
            <Bar
              dataKey="value"
              fill="#6366f1"
              className="cursor-pointer"
              onClick={(_, index) => {
                const d = data[index];
                if (d?.link) window.location.assign(videoListHref(projectId, d.link));
              }}
            >
              <ErrorBar dataKey="error" width={6} stroke="#1e1b4b" direction="x" />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </ChartFrame>
      <p className="flex flex-wrap gap-x-3 text-xs">
        {data.map((d) =>
          d.link ? (
            <a key={d.label} href={videoListHref(projectId, d.link)} className="text-indigo-700 underline">
              {d.label}
            </a>
          ) : null,
        )}
      </p>
    </div>
  );
}

function SweepChart({ projectId, report }: { projectId: string; report: AgreementReport }) {
  // The worst target first when the task sweeps it: one curve over every target.
  const [metric, setMetric] = useState<SweepMetric>(
    report.sweep.find((c) => c.metric === WORST_TARGET)?.metric ?? report.sweep[0]?.metric ?? "",
  );
  const curve = report.sweep.find((c) => c.metric === metric);
  if (!curve) return <p className="text-sm text-slate-500">The judge tasks in this report declare nothing to sweep.</p>;
  const singleRun = report.runs.length === 1 ? report.runs[0]!.id : null;
  // The declared query key that keeps a metric at or above a threshold ("<" rules have none exactly).
  const filter = curve.filterKey;
  return (
    <div data-testid="chart-sweep">
      <div className="mb-2 flex flex-wrap items-center gap-2 text-xs">
        {report.sweep.map((c) => (
          <button
            key={c.metric}
            type="button"
            onClick={() => setMetric(c.metric)}
            className={`rounded px-2 py-1 ${metric === c.metric ? "bg-indigo-600 text-white" : "bg-slate-100"}`}
          >
            {c.label}
          </button>
        ))}
        <span className="text-slate-600">
          {curve.n} videos with a verdict consensus; judge says yes when {curve.label} {curve.rule} t.{" "}
          {curve.best ? (
            <strong data-testid="sweep-best">
              Best F1 {fmt(curve.best.f1)} at t = {curve.best.threshold}
            </strong>
          ) : (
            "No best threshold (no positives)."
          )}
        </span>
      </div>
      {curve.n === 0 ? (
        <p className="text-sm text-slate-500">Reviewers&apos; yes/no verdicts are needed for the sweep.</p>
      ) : (
        <ChartFrame title={`Threshold sweep, ${curve.label}`} legend={SWEEP_LINES}>
          <ResponsiveContainer width="100%" height={260}>
            <LineChart data={curve.points} margin={{ top: 10, right: 10, bottom: 20, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis
                dataKey="threshold"
                type="number"
                domain={curve.domain}
                label={{ value: "threshold", position: "insideBottom", offset: -10 }}
              />
              <YAxis domain={[0, 1]} />
              <Tooltip formatter={(v) => (typeof v === "number" ? fmt(v) : String(v))} />
              {curve.best && <ReferenceLine x={curve.best.threshold} stroke="#16a34a" strokeDasharray="4 2" />}
              <Line
                type="monotone"
                dataKey="f1"
                stroke={SWEEP_LINES[0]!.color}
                connectNulls
                dot={{ r: 3 }}
                activeDot={{
                  r: 6,
                  className: filter && singleRun ? "cursor-pointer" : undefined,
                  onClick: (_: unknown, e: unknown) => {
                    const threshold = (e as { payload?: { threshold?: number } })?.payload?.threshold;
                    if (filter && singleRun && threshold !== undefined)
                      window.location.assign(videoListHref(projectId, { runId: singleRun, [filter]: threshold }));
                  },
                }}
              />
              {SWEEP_LINES.slice(1).map((l) => (
                <Line
                  key={l.key}
                  type="monotone"
                  dataKey={l.key}
                  stroke={l.color}
                  strokeDasharray={l.dash}
                  connectNulls
                  dot={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </ChartFrame>
      )}
      {filter && singleRun && curve.best && (
        <a
          href={videoListHref(projectId, { runId: singleRun, [filter]: curve.best.threshold })}
          className="text-xs text-indigo-700 underline"
        >
          videos the judge flags at the best threshold ({curve.label} {curve.rule} {curve.best.threshold})
        </a>
      )}
    </div>
  );
}

/** `fileNames`: the confusion cells' videos by id (the agreement page looks them up), so their links read as files. */
export function AgreementCharts({
  projectId,
  report,
  fileNames = {},
}: {
  projectId: string;
  report: AgreementReport;
  fileNames?: Record<string, string>;
}) {
  const catalogue = useTaskCatalogue();
  const kinds = report.confusionKinds;
  const [kindId, setKind] = useState(kinds[0]!.id);
  const kind = kinds.find((k) => k.id === kindId) ?? kinds[0]!;
  // What a binarised score counts as: the scored task's positive class name (its scale's positive rule).
  const scorePositive = (kinds.find((k) => k.id === "score") ?? kind).positive;
  const runNames = useMemo(
    () =>
      Object.fromEntries(
        report.runs.map((r) => [
          r.id,
          r.label ??
            runName(
              { pipeline: r.pipeline ?? "", endpointName: r.endpointName, model: r.model, createdAt: r.createdAt },
              catalogue,
            ),
        ]),
      ),
    [report.runs, catalogue],
  );
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="mb-2 text-base font-semibold text-slate-800">Judge vs reviewers&apos; consensus (binarised)</h2>
        <div className="mb-2 flex flex-wrap gap-2 text-xs">
          {kinds.map((k) => (
            <button
              key={k.id}
              type="button"
              onClick={() => setKind(k.id)}
              className={`rounded px-2 py-1 ${kind.id === k.id ? "bg-indigo-600 text-white" : "bg-slate-100"}`}
            >
              {k.label} ({report.confusion[k.id]?.n ?? 0})
            </button>
          ))}
        </div>
        <ConfusionHeatMap
          key={kind.id}
          projectId={projectId}
          view={report.confusion[kind.id]!}
          kind={kind}
          fileNames={fileNames}
          runNames={runNames}
        />
        <p className="mt-1 text-xs text-slate-500">
          Scores ≥ {report.options.threshold} and overall &lt; {report.options.overallThreshold} count as{" "}
          {scorePositive}. Verdict cells open the video list filtered on both verdicts; other cells list their videos.
        </p>
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="mb-2 text-base font-semibold text-slate-800">Judge vs humans, per score</h2>
        <JudgeHumanScatter projectId={projectId} report={report} />
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="mb-2 text-base font-semibold text-slate-800">Agreement per category (95% CI)</h2>
        <CategoryBars projectId={projectId} report={report} />
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="mb-2 text-base font-semibold text-slate-800">Threshold sweep</h2>
        <SweepChart projectId={projectId} report={report} />
      </section>
    </div>
  );
}
