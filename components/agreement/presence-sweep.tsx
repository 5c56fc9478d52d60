import type { PresenceReport } from "@/lib/agreement/types";
import { fmt } from "./links";

/**
 * Presence labels (present / absent per video and category) against the judge's presence read off its
 * graded scores: at each t, "judge ≥ t means present". One table per human side, the chosen t marked.
 */
export function PresenceSweep({ reports }: { reports: PresenceReport[] }) {
  const withCurves = reports.filter((r) => r.curves.length > 0);
  if (withCurves.length === 0)
    return (
      <p className="text-sm text-slate-500">
        No presence labels yet (present / absent per video: a label set, or a presence-first queue).
      </p>
    );
  return (
    <div className="flex flex-col gap-4" data-testid="presence-sweep">
      {withCurves.map((report) => (
        <div key={report.taskId} className="flex flex-col gap-3">
          <p className="text-sm text-slate-600" data-testid="presence-threshold">
            Chosen t = <b>{report.threshold}</b>
            {report.threshold !== report.defaultThreshold && <> (declared default {report.defaultThreshold})</>}:{" "}
            {report.rule}.
          </p>
          {report.curves.map((curve) => (
            <div key={curve.human} className="overflow-x-auto" data-testid="presence-curve" data-human={curve.human}>
              <h3 className="text-sm font-medium text-slate-800">
                vs {curve.label}{" "}
                <span className="font-normal text-slate-500">
                  (n = {curve.n}; best F1 at t = {curve.best?.threshold ?? "—"})
                </span>
              </h3>
              <table className="w-full text-left text-xs tabular-nums">
                <thead className="uppercase text-slate-500">
                  <tr>
                    <th className="px-2 py-1">t</th>
                    <th>κ</th>
                    <th>precision</th>
                    <th>recall</th>
                    <th>F1</th>
                    <th>n</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {curve.points.map((p) => (
                    <tr
                      key={p.threshold}
                      className={p.threshold === report.threshold ? "bg-indigo-50 font-semibold" : ""}
                      data-testid="presence-point"
                      data-threshold={p.threshold}
                    >
                      <td className="px-2 py-0.5">
                        {p.threshold}
                        {p.threshold === report.threshold ? " (chosen)" : ""}
                      </td>
                      <td>{fmt(p.kappa)}</td>
                      <td>{fmt(p.precision)}</td>
                      <td>{fmt(p.recall)}</td>
                      <td>{fmt(p.f1)}</td>
                      <td>{p.tp + p.fp + p.fn + p.tn}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
