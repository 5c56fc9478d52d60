import type { GeneratorRating, Ranking } from "@/lib/pairwise/ranking/ranking.types";
import { interval, points } from "./format";

/** The rating scale's ends every board of a page shares, so the interval bars compare across boards. */
export function ratingDomain(rankings: readonly Ranking[]): [number, number] {
  const values = rankings.flatMap((r) => r.ratings.flatMap((g) => [g.lower ?? g.rating, g.upper ?? g.rating]));
  if (values.length === 0) return [900, 1100];
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return high - low < 1 ? [low - 50, high + 50] : [low, high];
}

function IntervalBar({ rating, domain }: { rating: GeneratorRating; domain: [number, number] }) {
  const at = (value: number) => `${(((value - domain[0]) / (domain[1] - domain[0])) * 100).toFixed(2)}%`;
  const lower = rating.lower ?? rating.rating;
  const upper = rating.upper ?? rating.rating;
  return (
    <div className="relative h-3 w-40 rounded bg-slate-100" aria-hidden>
      <div
        className="absolute top-1 h-1 rounded bg-indigo-300"
        style={{ left: at(lower), width: `calc(${at(upper)} - ${at(lower)})` }}
      />
      <div className="absolute top-0 h-3 w-0.5 bg-indigo-700" style={{ left: at(rating.rating) }} />
    </div>
  );
}

/** A board's ratings: Rank (UB), rating with its 95% interval and bar, votes and their outcomes, preliminary marks. */
export function RankingTable({
  ranking,
  domain,
  testId,
}: {
  ranking: Ranking;
  domain: [number, number];
  testId: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid={testId}>
        <thead className="text-left text-xs text-slate-600">
          <tr>
            <th className="px-2 py-1" title="1 + the generators whose interval lies wholly above this one's">
              Rank (UB)
            </th>
            <th className="px-2 py-1">Generator</th>
            <th className="px-2 py-1 text-right">Rating</th>
            <th className="px-2 py-1">95% interval</th>
            <th className="px-2 py-1" />
            <th className="px-2 py-1 text-right">Votes</th>
            <th className="px-2 py-1 text-right" title="wins / losses / both good / both bad">
              W / L / good / bad
            </th>
          </tr>
        </thead>
        <tbody>
          {ranking.ratings.map((rating) => (
            <tr key={rating.generator} className="border-t border-slate-100" data-testid="pairwise-rating-row">
              <td className="px-2 py-1 tabular-nums">{rating.rankUb}</td>
              <td className="px-2 py-1 font-medium">
                {rating.generator}
                {rating.preliminary && (
                  <span
                    className="ml-2 rounded bg-amber-100 px-1 text-xs text-amber-800"
                    title={`fewer than ${ranking.options.minVotes} votes`}
                    data-testid="preliminary"
                  >
                    preliminary
                  </span>
                )}
              </td>
              <td className="px-2 py-1 text-right tabular-nums" data-testid="pairwise-rating">
                {points(rating.rating)}
              </td>
              <td className="px-2 py-1 tabular-nums text-slate-600">{interval(rating.lower, rating.upper, points)}</td>
              <td className="px-2 py-1">
                <IntervalBar rating={rating} domain={domain} />
              </td>
              <td className="px-2 py-1 text-right tabular-nums">{rating.votes}</td>
              <td className="px-2 py-1 text-right tabular-nums text-slate-600">
                {rating.wins} / {rating.losses} / {rating.tiesGood} / {rating.tiesBad}
              </td>
            </tr>
          ))}
          {ranking.unrated.map((generator) => (
            <tr key={generator} className="border-t border-slate-100 text-slate-500" data-testid="pairwise-unrated-row">
              <td className="px-2 py-1">–</td>
              <td className="px-2 py-1">{generator}</td>
              <td className="px-2 py-1 text-right" colSpan={5}>
                unrated: no vote yet
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
