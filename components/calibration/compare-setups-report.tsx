/** The Compare judge setups page's report: the runs side by side, whether their differences are real, and their prompts' differences. */
import Link from "next/link";
import { Card } from "@/components/empty-state";
import type { CompareSetupsReport } from "@/lib/calibration/compare-setups-load";
import type { PairedBootstrapResult } from "@/lib/stats/bootstrap";
import { formatCost, formatPValue, formatStatistic, STATISTIC_DIGITS } from "@/lib/format/numbers";

const f = (v: number | null | undefined, digits = STATISTIC_DIGITS) =>
  digits === STATISTIC_DIGITS ? formatStatistic(v) : v === null || v === undefined ? "—" : v.toFixed(digits);
const p = formatPValue;

function Difference({ r }: { r: PairedBootstrapResult }) {
  return (
    <span className="tabular-nums">
      {r.difference === null ? "—" : `${r.difference >= 0 ? "+" : ""}${r.difference.toFixed(2)}`}{" "}
      {r.lower !== null && r.upper !== null && (
        <span className="text-xs text-slate-500">
          [{r.lower.toFixed(2)}, {r.upper.toFixed(2)}]
        </span>
      )}{" "}
      · p = {p(r.p)}
    </span>
  );
}

type Name = (id: string) => string;
type Run = CompareSetupsReport["runs"][number];

export function CompareSetupsReportView({ report, name }: { report: CompareSetupsReport; name: Name }) {
  // A criterion scored per item (a rubric over items) is compared item by item.
  const units = report.compared.per === "item" ? "items" : "videos";
  return (
    <>
      <p className="text-sm text-slate-600" data-testid="compare-setups-summary">
        Compared on <b>{report.compared.label}</b>: {report.comparison.videoIds.length} {units} judged by every run and
        labelled in{" "}
        {report.reference.kind === "consensus" ? (
          "the reviewers' consensus"
        ) : report.reference.kind === "gold" ? (
          "the gold values"
        ) : (
          <b>{report.reference.name}</b>
        )}
        . Paired bootstrap over those {units}({report.bootstrap.iterations} resamples, seed {report.bootstrap.seed});
        McNemar on which {units} each verdict gets right.
      </p>
      <SideBySideCard report={report} name={name} />
      <PairsCard report={report} name={name} />
      {report.templateDiffs.length > 0 && <TemplateDiffsCard report={report} name={name} />}
    </>
  );
}

/** Each run's agreement with the reference, then its cost, time and setup (a setting that differs is marked). */
function SideBySideCard({ report, name }: { report: CompareSetupsReport; name: Name }) {
  const byId = new Map(report.comparison.runs.map((r) => [r.runId, r]));
  return (
    <Card title="Side by side">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="compare-setups-table">
          <thead className="text-xs text-slate-500">
            <tr>
              <th className="px-2 py-1" />
              {report.runs.map((r) => (
                <th key={r.id} className="px-2 py-1">
                  {name(r.id)}
                  {r.scores === "expected" ? " (expected scores)" : ""}{" "}
                  <Link className="font-normal text-indigo-700 underline" href={`../runs/${r.runId}`}>
                    run
                  </Link>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {(
              [
                ["κ (verdict)", (id: string) => f(byId.get(id)?.kappa)],
                ["Krippendorff's α (nominal)", (id: string) => f(byId.get(id)?.alpha)],
                ["accuracy", (id: string) => f(byId.get(id)?.accuracy)],
                ["F1 (run's verdict)", (id: string) => f(byId.get(id)?.f1)],
                [
                  "F1 at best threshold",
                  (id: string) => `${f(byId.get(id)?.bestF1)} (worst score ≥ ${f(byId.get(id)?.bestThreshold, 1)})`,
                ],
                ["Spearman ρ (worst score, label)", (id: string) => f(byId.get(id)?.spearman)],
                ["n", (id: string) => String(byId.get(id)?.n ?? 0)],
              ] as const
            ).map(([label, value]) => (
              <tr key={label} data-testid="compare-metric-row">
                <th className="px-2 py-1 font-medium">{label}</th>
                {report.runs.map((r) => (
                  <td key={r.id} className="px-2 py-1 tabular-nums">
                    {value(r.id)}
                  </td>
                ))}
              </tr>
            ))}
            <SetupRows report={report} />
          </tbody>
        </table>
      </div>
    </Card>
  );
}

const mark = (differs: boolean) => (differs ? "bg-amber-50" : undefined);

function SetupRows({ report }: { report: CompareSetupsReport }) {
  const d = report.differs;
  return (
    <>
      {(
        [
          [
            "cost",
            (r: Run) =>
              r.costUsd === null ? `unknown (${r.callsWithoutUsage} calls without usage)` : formatCost(r.costUsd),
            false,
          ],
          [
            "tokens (prompt / completion)",
            (r: Run) => (r.tokens.prompt === null ? "unknown" : `${r.tokens.prompt} / ${r.tokens.completion}`),
            false,
          ],
          ["calls", (r: Run) => String(r.calls), false],
          [
            "time (wall / summed latency, s)",
            (r: Run) => `${f(r.wallSeconds, 1)} / ${r.latencySeconds.toFixed(1)}`,
            false,
          ],
          ["parse failures / failed steps", (r: Run) => `${r.parseFailures} / ${r.failedSteps}`, false],
          ["endpoint", (r: Run) => r.endpoint, d.endpoint],
          ["model", (r: Run) => r.model, d.model],
          ["input mode", (r: Run) => r.inputMode, d.inputMode],
          ["generation parameters", (r: Run) => JSON.stringify(r.parameters), d.parameters],
          ["aggregation", (r: Run) => r.aggregation ?? "default", d.aggregation],
          ["verdict rule", (r: Run) => r.verdict ?? "default", d.verdict],
          ["frame sets", (r: Run) => r.frameSets.join("; "), d.frameSets],
        ] as const
      ).map(([label, value, differs]) => (
        <tr key={label} className={mark(differs)}>
          <th className="px-2 py-1 font-medium">
            {label}
            {differs && <span className="ml-1 text-xs text-amber-700">differs</span>}
          </th>
          {report.runs.map((r) => (
            <td key={r.id} className="max-w-xs break-words px-2 py-1 text-xs">
              {value(r)}
            </td>
          ))}
        </tr>
      ))}
      {[...new Set(report.runs.flatMap((r) => Object.keys(r.templates)))].sort().map((step) => (
        <tr key={step} className={mark(d.templates.includes(step))}>
          <th className="px-2 py-1 font-medium">
            prompt {step}
            {d.templates.includes(step) && <span className="ml-1 text-xs text-amber-700">differs</span>}
          </th>
          {report.runs.map((r) => (
            <td key={r.id} className="px-2 py-1 font-mono text-xs">
              {r.templates[step]?.hashes.map((h) => h.slice(0, 12)).join(", ") || "—"}
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

function PairsCard({ report, name }: { report: CompareSetupsReport; name: Name }) {
  return (
    <Card title="Are the differences real?">
      <table className="w-full text-left text-sm" data-testid="compare-pairs">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="px-2 py-1">pair</th>
            <th className="px-2 py-1">κ difference [95%] · p</th>
            <th className="px-2 py-1">best-threshold F1 difference [95%] · p</th>
            <th className="px-2 py-1">Spearman ρ difference [95%] · p</th>
            <th className="px-2 py-1">McNemar (right verdicts)</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {report.comparison.pairs.map((pair) => (
            <tr key={`${pair.a}-${pair.b}`}>
              <td className="px-2 py-1">
                {name(pair.a)} − {name(pair.b)}
              </td>
              <td className="px-2 py-1">
                <Difference r={pair.kappa} />
              </td>
              <td className="px-2 py-1">
                <Difference r={pair.bestF1} />
              </td>
              <td className="px-2 py-1">
                <Difference r={pair.spearman} />
              </td>
              <td className="px-2 py-1 tabular-nums">
                only {name(pair.a)} right: {pair.mcnemar.b}, only {name(pair.b)} right: {pair.mcnemar.c} · p ={" "}
                {p(pair.mcnemar.p)} ({pair.mcnemar.method === "exact" ? "exact" : "χ²"})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function TemplateDiffsCard({ report, name }: { report: CompareSetupsReport; name: Name }) {
  return (
    <Card title="Prompt differences">
      {report.templateDiffs.map((t) => (
        <div key={t.stepId} className="mb-4" data-testid="template-diff">
          <h3 className="text-sm font-semibold">{t.stepId}</h3>
          <p className="text-xs text-slate-500">
            {name(t.base.runId)}: {t.base.hash?.slice(0, 12) ?? "no hash"}, from {t.base.source}
          </p>
          {t.others.map((o) => (
            <div key={o.runId} className="mt-2">
              <p className="text-xs text-slate-500">
                {name(o.runId)}: {o.hash?.slice(0, 12) ?? "no hash"}, from {o.source}
              </p>
              <pre tabIndex={0} className="max-h-80 overflow-auto rounded bg-slate-50 p-2 text-xs">
                {o.diff
                  .filter((l, i, all) => l.op !== " " || all.slice(Math.max(0, i - 2), i + 3).some((x) => x.op !== " "))
                  .map((l, i) => (
                    <div
                      key={i}
                      className={
                        l.op === "+"
                          ? "bg-green-50 text-green-800"
                          : l.op === "-"
                            ? "bg-red-50 text-red-800"
                            : undefined
                      }
                    >
                      {l.op} {l.text}
                    </div>
                  ))}
              </pre>
            </div>
          ))}
        </div>
      ))}
    </Card>
  );
}
