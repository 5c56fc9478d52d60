import Link from "next/link";
import { formatCost } from "@/lib/format/numbers";
import type { ensembleRunReport } from "@/lib/ensembles/ensemble-report";

type Report = NonNullable<Awaited<ReturnType<typeof ensembleRunReport>>>;

const fixed = (value: number | null, digits = 2) => (value === null ? "—" : value.toFixed(digits));

/**
 * An ensemble run's members (each sample's or judge's run, status, calls and cost) and per target the members'
 * agreement (Krippendorff's α) and unstable scores, with links to the list filtered and sorted by them.
 */
export function EnsembleSummary({
  projectId,
  report,
  canManageQueues,
}: {
  projectId: string;
  report: Report;
  canManageQueues: boolean;
}) {
  const noun = report.kind === "samples" ? "sample" : "judge";
  const unstableWord = report.kind === "samples" ? "unstable" : "judges disagree";
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-violet-200 bg-white p-4 text-sm"
      data-testid="ensemble-summary"
    >
      <h2 className="font-medium">
        {report.kind === "samples"
          ? `Self-consistency: ${report.samples} samples at temperature ${report.temperature}, combined as each target declares (mean, median or majority)`
          : `Judge panel of ${report.members.length}, combined by ${report.combine === "minimum" ? "the least favourable value" : report.combine}`}
      </h2>
      <MembersTable projectId={projectId} members={report.members} noun={noun} />
      <p>
        Whole {report.kind === "samples" ? "ensemble" : "panel"}:{" "}
        {report.costUsd === null ? "unknown (some calls without usage)" : formatCost(report.costUsd)}
      </p>
      {report.targets.length > 0 && (
        <TargetsTable projectId={projectId} report={report} noun={noun} unstableWord={unstableWord} />
      )}
      <p className="text-xs text-slate-500">
        <Link
          href={`/projects/${projectId}/videos?runId=${report.runId}&sort=dispersion&dir=desc`}
          className="text-indigo-700 underline"
        >
          videos by dispersion
        </Link>
        {canManageQueues && (
          <>
            {" "}
            ·{" "}
            <Link
              href={`/projects/${projectId}/queues/new?runId=${report.runId}&unstable=1`}
              className="text-indigo-700 underline"
            >
              review the {report.kind === "samples" ? "unstable targets" : "panel's disagreements"}
            </Link>
          </>
        )}
      </p>
    </section>
  );
}

/** One row per member run: its link, endpoint, temperature, status, calls and cost. */
function MembersTable({ projectId, members, noun }: { projectId: string; members: Report["members"]; noun: string }) {
  return (
    <table className="w-full text-left" data-testid="ensemble-members">
      <thead className="text-xs uppercase text-slate-500">
        <tr>
          <th className="py-1">{noun}</th>
          <th>Endpoint</th>
          <th>Temperature</th>
          <th>Status</th>
          <th>Calls</th>
          <th>Cost</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {members.map((m) => (
          <tr key={m.runId} data-testid="ensemble-member">
            <td className="py-1">
              <Link href={`/projects/${projectId}/runs/${m.runId}`} className="text-indigo-700 underline">
                {noun} {m.memberIndex + 1}
              </Link>
            </td>
            <td>
              {m.endpoint.name} ({m.endpoint.model})
            </td>
            <td>{m.temperature ?? "endpoint default"}</td>
            <td>{m.status}</td>
            <td>{m.calls}</td>
            <td data-testid="ensemble-member-cost">
              {m.costUsd === null ? `≥ ${formatCost(m.costUsdAtLeast)}` : formatCost(m.costUsd)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Per target: the members' agreement (α), mean SD, unstable scores and a link to the videos with them. */
function TargetsTable({
  projectId,
  report,
  noun,
  unstableWord,
}: {
  projectId: string;
  report: Report;
  noun: string;
  unstableWord: string;
}) {
  return (
    <table className="w-full text-left" data-testid="ensemble-targets">
      <thead className="text-xs uppercase text-slate-500">
        <tr>
          <th className="py-1">Target</th>
          <th title={`Krippendorff's α among the ${noun}s, at the target's level of measurement`}>α among {noun}s</th>
          <th>Mean SD</th>
          <th>{unstableWord}</th>
          <th />
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {report.targets.map((t) => (
          <tr key={t.target} data-testid="ensemble-target">
            <td className="py-1">{t.label}</td>
            <td data-testid="ensemble-alpha">{fixed(t.alpha)}</td>
            <td>{fixed(t.meanSd)}</td>
            <td>
              {t.unstable} of {t.scores}
              {t.unstableAt !== null && <span className="ml-1 text-xs text-slate-500">(at {t.unstableAt})</span>}
            </td>
            <td>
              <Link
                href={`/projects/${projectId}/videos?runId=${report.runId}&unstable=1&category=${encodeURIComponent(t.target)}`}
                className="text-xs text-indigo-700 underline"
              >
                list them
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
