import type { LeaderboardPair, LeaderboardResult } from "@/lib/leaderboard/leaderboard";
import { formatPValue, MISSING } from "@/lib/format/numbers";
import { DataTable } from "@/components/ui/data-table";

/** How a value of the ranked metric reads: a share as a percentage, else with two decimals. */
export function leaderboardValueFormat(percent: boolean): (value: number | null) => string {
  return (value) => (value === null ? MISSING : percent ? `${(value * 100).toFixed(1)}%` : value.toFixed(2));
}

const withInterval = (
  fmt: (value: number | null) => string,
  value: number | null,
  lower: number | null,
  upper: number | null,
) =>
  value === null
    ? MISSING
    : lower === null || upper === null
      ? fmt(value)
      : `${fmt(value)} [${fmt(lower)}, ${fmt(upper)}]`;

/** One row per generator in ranking order: the metric with its 95% interval, and its videos and prompts. */
export function LeaderboardTable({
  result,
  dimension,
  percent,
}: {
  result: LeaderboardResult;
  dimension: string;
  percent: boolean;
}) {
  const fmt = leaderboardValueFormat(percent);
  const cell = (g: LeaderboardResult["generators"][number]) => g.dimensions[dimension]!;
  return (
    <DataTable
      testId="leaderboard-table"
      columns={[
        { id: "rank", header: "Rank", cell: (g) => g.rank },
        { id: "model", header: "Model", className: "font-medium", cell: (g) => g.model },
        {
          id: "mean",
          header: "Mean [95% interval]",
          className: "tabular-nums",
          cell: (g) => withInterval(fmt, cell(g).score, cell(g).lower, cell(g).upper),
        },
        { id: "videos", header: "Videos", className: "tabular-nums", cell: (g) => cell(g).n },
        { id: "prompts", header: "Prompts", className: "tabular-nums", cell: (g) => cell(g).prompts },
      ]}
      rows={result.generators}
      rowKey={(g) => g.model}
      rowProps={() => ({ "data-testid": "leaderboard-row" })}
    />
  );
}

/** Every pair of models: the difference over the prompts both have, its interval and p-value. */
export function LeaderboardPairsTable({ pairs, percent }: { pairs: readonly LeaderboardPair[]; percent: boolean }) {
  const fmt = leaderboardValueFormat(percent);
  const clear = (pair: LeaderboardPair) =>
    pair.lower !== null && pair.upper !== null && (pair.lower > 0 || pair.upper < 0);
  return (
    <DataTable
      testId="leaderboard-pairs"
      columns={[
        { id: "a", header: "Model", className: "font-medium", cell: (pair) => pair.a },
        { id: "b", header: "versus", cell: (pair) => pair.b },
        { id: "n", header: "Shared prompts", className: "tabular-nums", cell: (pair) => pair.n },
        {
          id: "difference",
          header: "Difference [95% interval]",
          className: "tabular-nums",
          cellProps: (pair) => ({ className: clear(pair) ? "font-medium" : undefined }),
          cell: (pair) =>
            pair.n === 0 ? "no shared prompt" : withInterval(fmt, pair.difference, pair.lower, pair.upper),
        },
        { id: "p", header: "p", className: "tabular-nums", cell: (pair) => formatPValue(pair.p) },
      ]}
      rows={pairs}
      rowKey={(pair) => `${pair.a}\u0000${pair.b}`}
      rowProps={() => ({ "data-testid": "leaderboard-pair" })}
    />
  );
}
