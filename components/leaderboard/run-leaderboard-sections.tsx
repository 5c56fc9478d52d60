// The run leaderboard page's sections: the metric picker, and the models ranked by it with their pairs and downloads.
import { ExportButtons } from "@/components/agreement/export-buttons";
import { buttonClass } from "@/components/class-names";
import { Card } from "@/components/empty-state";
import { LeaderboardChart } from "@/components/leaderboard/leaderboard-chart";
import { LeaderboardPairsTable, LeaderboardTable } from "@/components/leaderboard/leaderboard-tables";
import type { RunLeaderboard } from "@/lib/leaderboard/run-leaderboard";

/** The metric to rank by (a GET form: the choice is the page's URL). */
export function LeaderboardMetricForm({ board }: { board: RunLeaderboard }) {
  return (
    <form className="flex flex-wrap items-end gap-3 text-sm" method="get" data-testid="leaderboard-form">
      <label className="flex flex-col gap-1">
        Metric
        <select
          name="metric"
          defaultValue={board.metric.id}
          className="rounded-md border border-slate-300 px-2 py-1.5"
          data-testid="leaderboard-metric"
        >
          {board.metrics.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      <button className={buttonClass("secondary")}>Show</button>
    </form>
  );
}

/** The models ranked by the metric (table and chart), every pair's difference, and the CSV and LaTeX downloads. */
export function RankedModels({ board, runId }: { board: RunLeaderboard; runId: string }) {
  const api = (format: string, extra = "") =>
    `/api/v1/runs/${runId}/leaderboard?metric=${encodeURIComponent(board.metric.id)}&format=${format}${extra}`;
  const fileName = `leaderboard-${runId}-${board.metric.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return (
    <>
      <Card title={`${board.metric.label} by model (${board.metric.higherIsBetter ? "higher" : "lower"} is better)`}>
        <div className="flex flex-col gap-4">
          <LeaderboardTable result={board.leaderboard} dimension={board.metric.id} percent={board.metric.percent} />
          <LeaderboardChart
            generators={board.leaderboard.generators}
            dimension={board.metric.id}
            percent={board.metric.percent}
            domain={[board.metric.scale.min, board.metric.scale.max]}
          />
          <p className="text-xs text-slate-500" data-testid="leaderboard-videos">
            {board.videos.ranked} videos ranked
            {board.videos.withoutModel ? `; ${board.videos.withoutModel} without a model left out` : ""}.{" "}
            {board.leaderboard.bootstrap.samples} resamples, seed {board.leaderboard.bootstrap.seed}.
          </p>
        </div>
      </Card>
      {board.leaderboard.pairs.length > 0 && (
        <Card title="Pairs of models">
          <LeaderboardPairsTable pairs={board.leaderboard.pairs} percent={board.metric.percent} />
        </Card>
      )}
      <Card title="Downloads">
        <ExportButtons
          downloads={[
            { label: "CSV", href: api("csv"), filename: `${fileName}.csv`, kind: "csv" },
            { label: "LaTeX", href: api("latex"), filename: `${fileName}.tex` },
            { label: "LaTeX with intervals", href: api("latex", "&intervals=1"), filename: `${fileName}.tex` },
          ]}
        />
      </Card>
    </>
  );
}
