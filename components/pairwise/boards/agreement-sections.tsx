import { Card } from "@/components/empty-state";
import type { AgreementFigure, AgreementRow, HumanNoiseLine } from "@/lib/pairwise/agreement/agreement.types";
import type { AspectAgreement, PairwiseAgreement } from "@/lib/pairwise/reports/reports.types";
import { decimal, interval, percent } from "./format";

const STATISTICS = [
  { id: "accuracy4", label: "Accuracy (4-way)", share: true },
  { id: "accuracy3", label: "Accuracy (3-way)", share: true },
  { id: "accuracy2", label: "Accuracy (2-way)", share: true },
  { id: "cohenKappa", label: "Cohen's κ", share: false },
  { id: "krippendorffAlpha", label: "Krippendorff's α", share: false },
] as const;

function referenceLabel(reference: string, names: Record<string, string>): string {
  if (reference === "people") return "people (pooled)";
  if (reference === "gold") return "gold";
  return names[reference.replace(/^person:/, "")] ?? reference;
}

function Figure({ figure, share }: { figure: AgreementFigure; share: boolean }) {
  const format = share ? percent : (v: number | null) => decimal(v);
  return (
    <span className="tabular-nums">
      {format(figure.value)}
      <span className="ml-1 text-xs text-slate-500">{interval(figure.lower, figure.upper, format)}</span>
    </span>
  );
}

function AgreementTable({ rows, names }: { rows: AgreementRow[]; names: Record<string, string> }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="pairwise-agreement-table">
        <thead className="text-left text-xs text-slate-600">
          <tr>
            <th className="px-2 py-1">Rater</th>
            <th className="px-2 py-1">against</th>
            {STATISTICS.map((s) => (
              <th key={s.id} className="px-2 py-1">
                {s.label}
              </th>
            ))}
            <th className="px-2 py-1 text-right">Pairs</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={`${row.rater}|${row.reference}`}
              className="border-t border-slate-100"
              data-testid="pairwise-agreement-row"
            >
              <td className="px-2 py-1">
                {names[row.rater] ?? row.rater}
                {row.raterKind === "judge" && <span className="ml-1 text-xs text-slate-500">(judge)</span>}
              </td>
              <td className="px-2 py-1">{referenceLabel(row.reference, names)}</td>
              {STATISTICS.map((s) => (
                <td key={s.id} className="px-2 py-1">
                  <Figure figure={row.agreement[s.id]} share={s.share} />
                </td>
              ))}
              <td className="px-2 py-1 text-right tabular-nums">{row.agreement.accuracy4.n}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Three-way accuracy per comparison as bars with their intervals (0–100%). */
function AgreementChart({ rows, names }: { rows: AgreementRow[]; names: Record<string, string> }) {
  const at = (value: number) => `${(value * 100).toFixed(1)}%`;
  return (
    <figure className="flex flex-col gap-1 text-xs" data-testid="pairwise-agreement-chart">
      <figcaption className="font-medium text-slate-700">
        Three-way accuracy (ties merged), with 95% intervals
      </figcaption>
      {rows.map((row) => {
        const figure = row.agreement.accuracy3;
        return (
          <div key={`${row.rater}|${row.reference}`} className="flex items-center gap-2">
            <span
              className="w-64 truncate text-slate-600"
              title={`${names[row.rater] ?? row.rater} vs ${row.reference}`}
            >
              {names[row.rater] ?? row.rater} vs {referenceLabel(row.reference, names)}
            </span>
            <div className="relative h-3 w-64 rounded bg-slate-100" aria-hidden>
              {figure.value !== null && (
                <div className="absolute h-3 rounded bg-indigo-300" style={{ width: at(figure.value) }} />
              )}
              {figure.lower !== null && figure.upper !== null && (
                <div
                  className="absolute top-1 h-1 bg-indigo-800"
                  style={{ left: at(figure.lower), width: `calc(${at(figure.upper)} - ${at(figure.lower)})` }}
                />
              )}
            </div>
            <span className="tabular-nums">{percent(figure.value)}</span>
          </div>
        );
      })}
    </figure>
  );
}

function NoiseLines({ lines, names }: { lines: HumanNoiseLine[]; names: Record<string, string> }) {
  if (lines.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-sm" data-testid="human-noise">
      {lines.map((line) => (
        <li key={line.judge}>
          <span className="font-medium">{names[line.judge] ?? line.judge}</span>:{" "}
          {line.within === null
            ? `cannot say whether within human noise (${line.reason ?? "no figure"}).`
            : `${line.within ? "within" : "not within"} human noise: three-way accuracy with people ${percent(line.judgeAccuracy3.value)} against people with each other ${percent(line.humanAccuracy3.value)} ${interval(line.humanAccuracy3.lower, line.humanAccuracy3.upper, percent)}.`}
        </li>
      ))}
    </ul>
  );
}

function AspectCard({ aspect, names }: { aspect: AspectAgreement; names: Record<string, string> }) {
  return (
    <Card title={aspect.label}>
      <div className="flex flex-col gap-3" data-testid={`pairwise-agreement-${aspect.aspect}`}>
        {aspect.withheld ? (
          <p role="status" className="text-sm text-slate-700">
            {aspect.withheld}
          </p>
        ) : (
          <>
            <AgreementTable rows={aspect.rows} names={names} />
            <AgreementChart rows={aspect.rows} names={names} />
          </>
        )}
        {aspect.peopleAlpha && aspect.peopleAlpha.n > 0 && (
          <p className="text-sm" data-testid="people-alpha">
            Krippendorff&apos;s α among all the people: {decimal(aspect.peopleAlpha.value)}{" "}
            {interval(aspect.peopleAlpha.lower, aspect.peopleAlpha.upper, decimal)} over {aspect.peopleAlpha.n} pairs.
          </p>
        )}
        <NoiseLines lines={aspect.noise} names={names} />
      </div>
    </Card>
  );
}

/** Every aspect's agreement (table, chart, human-noise lines), and what was left out. */
export function PairwiseAgreementSections({ report }: { report: PairwiseAgreement }) {
  const leftOut = [
    report.honeypotVotesLeftOut ? `${report.honeypotVotesLeftOut} honeypot votes` : null,
    report.cappedVotesDropped ? `${report.cappedVotesDropped} votes over the per-prompt cap` : null,
  ].filter(Boolean);
  return (
    <>
      {leftOut.length > 0 && <p className="text-sm text-slate-600">Left out: {leftOut.join("; ")}.</p>}
      {report.aspects.map((aspect) => (
        <AspectCard key={aspect.aspect} aspect={aspect} names={report.raterNames} />
      ))}
    </>
  );
}
