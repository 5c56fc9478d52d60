import Link from "next/link";
import { Card } from "@/components/empty-state";
import { formatCost, formatStatistic } from "@/lib/format/numbers";
import type { RankingInput } from "@/lib/leaderboard/ranking-agreement";
import type { ComparedRun, RunComparison } from "@/lib/run-comparison/run-comparison";

const cell = "border-b border-slate-100 px-2 py-1.5 align-top";
const head = "border-b border-slate-200 px-2 py-1.5 text-left font-medium text-slate-600";

/** "#1", "#2"…: the runs' column names, in the order asked. */
const tag = (i: number) => `#${i + 1}`;

function rankingText(ranking: RankingInput): string {
  return ranking.map((entry) => (typeof entry === "string" ? entry : `(${entry.join(" = ")})`)).join(" > ");
}

function duration(seconds: number | null): string {
  if (seconds === null) return "not finished";
  if (seconds < 90) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** One row per run of the table: a name and a value per run. */
function RunRows({ runs, rows }: { runs: ComparedRun[]; rows: [string, (run: ComparedRun) => string][] }) {
  return (
    <>
      {rows.map(([label, read]) => (
        <tr key={label}>
          <th scope="row" className={`${cell} font-normal text-slate-600`}>
            {label}
          </th>
          {runs.map((run) => (
            <td key={run.id} className={`${cell} tabular-nums`}>
              {read(run)}
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

function RunsTable({ projectId, comparison }: { projectId: string; comparison: RunComparison }) {
  const { runs } = comparison;
  const nativeTypes = [...new Set(runs.flatMap((r) => r.agreement.native.map((b) => b.targetType)))];
  const spanLabels = [...new Set(runs.flatMap((r) => r.spans.map((s) => s.label)))];
  const native = (run: ComparedRun, type: string) => run.agreement.native.find((b) => b.targetType === type);
  // Imported label sets are people's values too: one pair of rows per label set any run is compared with.
  const labelSets = new Map(runs.flatMap((r) => r.agreement.labelSets.map((l) => [l.reviewerId, l.label] as const)));
  const labelSet = (run: ComparedRun, id: string) => run.agreement.labelSets.find((l) => l.reviewerId === id);
  const span = (run: ComparedRun, label: string) => run.spans.find((s) => s.label === label);
  return (
    <table className="w-full border-collapse text-sm" data-testid="run-comparison-table">
      <thead>
        <tr>
          <th className={head} />
          {runs.map((run, i) => (
            <th key={run.id} className={head} data-testid="compared-run">
              <span className="mr-1 text-slate-500">{tag(i)}</span>
              <Link href={`/projects/${projectId}/runs/${run.id}`} className="text-indigo-700 underline">
                {run.name}
              </Link>
              {/* Runs of one sweep share their name's parts: what tells them apart, under it. */}
              <div className="text-xs font-normal text-slate-500" data-testid="compared-run-differs">
                {comparison.differences.map((d) => `${d.label}: ${d.values[i]}`).join(" · ")}
              </div>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <RunRows
          runs={runs}
          rows={[
            ["Input mode", (r) => r.inputMode],
            ["Frames per video", (r) => r.frameCounts.join(", ") || "—"],
            ["Videos judged", (r) => String(r.videos)],
            ["Status", (r) => r.status],
            ["Agreement with reviewers: targets", (r) => String(r.agreement.n)],
            ["Agreement with reviewers: κ (binarised)", (r) => formatStatistic(r.agreement.kappa)],
            ...[...labelSets].flatMap(([id, label]): [string, (run: ComparedRun) => string][] => [
              [`Agreement with ${label}: targets`, (r) => String(labelSet(r, id)?.n ?? 0)],
              [`Agreement with ${label}: κ (binarised)`, (r) => formatStatistic(labelSet(r, id)?.kappa)],
            ]),
            ...nativeTypes.flatMap((type): [string, (run: ComparedRun) => string][] => [
              [`${type}: weighted κ`, (r) => formatStatistic(native(r, type)?.kappaQuadratic)],
              [`${type}: Krippendorff's α`, (r) => formatStatistic(native(r, type)?.alpha)],
            ]),
            ...spanLabels.flatMap((label): [string, (run: ComparedRun) => string][] => [
              [`Spans "${label}": F1 at IoU 0.5`, (r) => formatStatistic(span(r, label)?.f1At50)],
              [
                `Spans "${label}": frame κ / α`,
                (r) =>
                  `${formatStatistic(span(r, label)?.frameKappa)} / ${formatStatistic(span(r, label)?.frameAlpha)}`,
              ],
            ]),
            ["Calls (cached)", (r) => `${r.cost.calls} (${r.cost.cached})`],
            ["Cost", (r) => formatCost(r.cost.costUsd)],
            [
              "Input / output tokens",
              (r) => `${r.cost.promptTokens.toLocaleString("en")} / ${r.cost.completionTokens.toLocaleString("en")}`,
            ],
            ["Bytes sent", (r) => r.cost.bytesSent.toLocaleString("en")],
            [
              "Mean call latency",
              (r) => (r.cost.meanLatencyMs === null ? "—" : `${Math.round(r.cost.meanLatencyMs)} ms`),
            ],
            ["Start to finish", (r) => duration(r.cost.durationS)],
          ]}
        />
      </tbody>
    </table>
  );
}

/** Runs of one task side by side: what differs, agreement with people, τ between rankings, cost and time. */
export function RunComparisonView({ projectId, comparison }: { projectId: string; comparison: RunComparison }) {
  const { runs, differences, tau } = comparison;
  const indexOf = new Map(runs.map((r, i) => [r.id, i]));
  return (
    <div className="flex flex-col gap-4">
      <Card title="What differs">
        {differences.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="run-differences">
            Nothing: the runs share their input mode, frames, model, endpoint, prompt versions and settings.
          </p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm" data-testid="run-differences">
            {differences.map((d) => (
              <li key={d.field}>
                <span className="font-medium">{d.label}:</span>{" "}
                {d.values.map((v, i) => `${tag(i)} ${v.length > 80 ? `${v.slice(0, 80)}…` : v}`).join(" · ")}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title={`${comparison.task.label}: ${runs.length} runs`}>
        <div className="overflow-x-auto">
          <RunsTable projectId={projectId} comparison={comparison} />
        </div>
      </Card>
      <Card title="Generator rankings">
        {comparison.rankingMetric && (
          <p className="mb-2 text-sm text-slate-600">By {comparison.rankingMetric.label}, best first.</p>
        )}
        <ul className="flex flex-col gap-1 text-sm">
          {runs.map((run, i) => (
            <li key={run.id}>
              <span className="text-slate-500">{tag(i)}</span>{" "}
              {run.ranking ? rankingText(run.ranking) : run.rankingNote}
            </li>
          ))}
        </ul>
        {tau.length > 0 && (
          <table className="mt-3 border-collapse text-sm" data-testid="run-comparison-tau">
            <thead>
              <tr>
                <th className={head}>Runs</th>
                <th className={head}>Generators both rank</th>
                <th className={head}>Kendall τ-b</th>
              </tr>
            </thead>
            <tbody>
              {tau.map((t) => (
                <tr key={`${t.a}|${t.b}`}>
                  <td className={cell}>
                    {tag(indexOf.get(t.a)!)} and {tag(indexOf.get(t.b)!)}
                  </td>
                  <td className={`${cell} tabular-nums`}>{t.generators}</td>
                  <td className={`${cell} tabular-nums`}>{formatStatistic(t.tau)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}
