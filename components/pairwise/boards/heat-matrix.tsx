import type { Ranking } from "@/lib/pairwise/ranking/ranking.types";
import { percent } from "./format";

/**
 * A generator-by-generator matrix of shares (row against column) as a heat table: win rate (ties half) or the share
 * of both-bad verdicts, each cell with its vote count in its title; empty where the two never met.
 */
export function HeatMatrix({
  ranking,
  which,
  title,
}: {
  ranking: Ranking;
  which: "winRate" | "bothBadRate";
  title: string;
}) {
  const rgb = which === "winRate" ? "79, 70, 229" : "225, 29, 72";
  return (
    <figure className="flex flex-col gap-1 text-xs">
      <figcaption className="font-medium text-slate-700">{title}</figcaption>
      <table className="border-collapse" data-testid={`heat-${which}`}>
        <thead>
          <tr>
            <th />
            {ranking.generators.map((g) => (
              <th key={g} className="max-w-24 truncate px-1 font-normal text-slate-600" title={g}>
                {g}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ranking.generators.map((row, i) => (
            <tr key={row}>
              <th className="max-w-32 truncate pr-2 text-left font-normal text-slate-600" title={row}>
                {row}
              </th>
              {ranking.generators.map((column, j) => {
                const value = ranking[which][i]?.[j] ?? null;
                return (
                  <td
                    key={column}
                    className="h-8 w-12 border border-white text-center tabular-nums"
                    style={
                      value === null
                        ? undefined
                        : { backgroundColor: `rgba(${rgb}, ${(0.1 + value * 0.6).toFixed(2)})` }
                    }
                    title={`${row} vs ${column}: ${ranking.voteCount[i]?.[j] ?? 0} votes`}
                  >
                    {i === j ? "" : percent(value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
