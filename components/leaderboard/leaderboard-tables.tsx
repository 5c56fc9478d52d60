import type { LeaderboardPair, LeaderboardResult } from "@/lib/leaderboard/leaderboard";
import { formatPValue, MISSING } from "@/lib/format/numbers";

/** How a value of the ranked metric reads: a share as a percentage, else with two decimals. */
export function leaderboardValueFormat(percent: boolean): (value: number | null) => string {
  return (value) => (value === null ? MISSING : percent ? `${(value * 100).toFixed(1)}%` : value.toFixed(2));
}

const withInterval = (fmt: (value: number | null) => string, value: number | null, lower: number | null, upper: number | null) =>
  value === null ? MISSING : lower === null || upper === null ? fmt(value) : `${fmt(value)} [${fmt(lower)}, ${fmt(upper)}]`;

/** One row per generator in ranking order: the metric with its 95% interval, and its videos and prompts. */
export function LeaderboardTable({ result, dimension, percent }: { result: LeaderboardResult; dimension: string; percent: boolean }) {
  const fmt = leaderboardValueFormat(percent);
  return (
    <table className="w-full text-left text-sm" data-testid="leaderboard-table">
      <thead className="text-xs uppercase text-slate-500">
        <tr>
          <th className="py-1">Rank</th>
          <th>Model</th>
          <th>Mean [95% interval]</th>
          <th>Videos</th>
          <th>Prompts</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {result.generators.map((g) => {
          const cell = g.dimensions[dimension]!;
          return (
            <tr key={g.model} data-testid="leaderboard-row">
              <td className="py-1">{g.rank}</td>
              <td className="font-medium">{g.model}</td>
              <td className="tabular-nums">{withInterval(fmt, cell.score, cell.lower, cell.upper)}</td>
              <td className="tabular-nums">{cell.n}</td>
              <td className="tabular-nums">{cell.prompts}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Every pair of models: the difference over the prompts both have, its interval and p-value. */
export function LeaderboardPairsTable({ pairs, percent }: { pairs: readonly LeaderboardPair[]; percent: boolean }) {
  const fmt = leaderboardValueFormat(percent);
  return (
    <table className="w-full text-left text-sm" data-testid="leaderboard-pairs">
      <thead className="text-xs uppercase text-slate-500">
        <tr>
          <th className="py-1">Model</th>
          <th>versus</th>
          <th>Shared prompts</th>
          <th>Difference [95% interval]</th>
          <th>p</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {pairs.map((pair) => {
          const clear = pair.lower !== null && pair.upper !== null && (pair.lower > 0 || pair.upper < 0);
          return (
            <tr key={`${pair.a}\u0000${pair.b}`} data-testid="leaderboard-pair">
              <td className="py-1 font-medium">{pair.a}</td>
              <td>{pair.b}</td>
              <td className="tabular-nums">{pair.n}</td>
              <td className={`tabular-nums ${clear ? "font-medium" : ""}`}>{pair.n === 0 ? "no shared prompt" : withInterval(fmt, pair.difference, pair.lower, pair.upper)}</td>
              <td className="tabular-nums">{formatPValue(pair.p)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
