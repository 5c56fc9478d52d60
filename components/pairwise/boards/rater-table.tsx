import type { RaterBoardRow } from "@/lib/pairwise/reports/reports.types";
import { percent } from "./format";

const share = (part: number, whole: number) => (whole ? `${percent(part / whole)} of ${whole}` : "–");

/** Each rater's quality for owners: honeypots, gold, left-position rate, time per verdict, habit, capped votes. */
export function RaterTable({ raters }: { raters: RaterBoardRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="pairwise-raters">
        <thead className="text-left text-xs text-slate-600">
          <tr>
            <th className="px-2 py-1">Rater</th>
            <th className="px-2 py-1 text-right">Verdicts</th>
            <th className="px-2 py-1">Honeypots right</th>
            <th className="px-2 py-1">Agrees with gold</th>
            <th className="px-2 py-1" title="Of the verdicts that chose a video, the share that chose the left one">
              Chose the left
            </th>
            <th className="px-2 py-1 text-right">Median time</th>
            <th className="px-2 py-1">Always the same</th>
            <th className="px-2 py-1 text-right">Votes capped</th>
          </tr>
        </thead>
        <tbody>
          {raters.map((r) => (
            <tr key={r.rater} className="border-t border-slate-100" data-testid="pairwise-rater-row">
              <td className="px-2 py-1">
                {r.name}
                {r.raterKind !== "reviewer" && <span className="ml-1 text-xs text-slate-500">({r.raterKind})</span>}
              </td>
              <td className="px-2 py-1 text-right tabular-nums">{r.verdicts}</td>
              <td className="px-2 py-1 tabular-nums">{share(r.honeypots.correct, r.honeypots.answered)}</td>
              <td className="px-2 py-1 tabular-nums">{share(r.gold.agreed, r.gold.answered)}</td>
              <td className="px-2 py-1 tabular-nums">{percent(r.leftRate)}</td>
              <td className="px-2 py-1 text-right tabular-nums">
                {r.medianMsPerVerdict === null ? "–" : `${(r.medianMsPerVerdict / 1000).toFixed(1)} s`}
              </td>
              <td className="px-2 py-1">
                {r.alwaysSame ? (
                  <span className="rounded bg-rose-100 px-1 text-rose-800" data-testid="always-same">
                    always {r.alwaysSame}
                  </span>
                ) : (
                  "no"
                )}
              </td>
              <td className="px-2 py-1 text-right tabular-nums">{r.votesCapped}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
