import Link from "next/link";
import type { PairSetListRow } from "@/lib/pairwise/reports/pair-set-overview";

/** The project's pair sets: name, pairs, done pairs, verdicts and judge runs, each linking its page and leaderboard. */
export function PairSetTable({ projectId, sets }: { projectId: string; sets: PairSetListRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="pair-sets">
        <thead className="text-left text-xs text-slate-600">
          <tr>
            <th className="px-2 py-1">Name</th>
            <th className="px-2 py-1 text-right">Pairs</th>
            <th className="px-2 py-1 text-right">Done</th>
            <th className="px-2 py-1 text-right">Verdicts</th>
            <th className="px-2 py-1 text-right">Judge runs</th>
            <th className="px-2 py-1" />
          </tr>
        </thead>
        <tbody>
          {sets.map((set) => (
            <tr key={set.id} className="border-t border-slate-100" data-testid="pair-set-row">
              <td className="px-2 py-1">
                <Link href={`/projects/${projectId}/pairs/${set.id}`} className="text-indigo-700 underline">
                  {set.name}
                </Link>
                {set.archivedAt && (
                  <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-800">archived</span>
                )}
              </td>
              <td className="px-2 py-1 text-right tabular-nums">{set.pairs}</td>
              <td className="px-2 py-1 text-right tabular-nums">{set.done}</td>
              <td className="px-2 py-1 text-right tabular-nums">{set.verdicts}</td>
              <td className="px-2 py-1 text-right tabular-nums">{set.runs}</td>
              <td className="px-2 py-1">
                <Link href={`/projects/${projectId}/pairs/${set.id}/leaderboard`} className="text-indigo-700 underline">
                  leaderboard
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
