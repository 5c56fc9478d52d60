import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { compareSetupsQuerySchema } from "@/lib/calibration/calibration.validation";
import {
  compareSetupsReport,
  compareTargetChoices,
  type CompareSetupsReport,
} from "@/lib/calibration/compare-setups-load";
import { calibrationOptions, runOptionLabels } from "@/lib/calibration/calibration-options";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import type { PairedBootstrapResult } from "@/lib/stats/bootstrap";
import { WithheldError } from "@/lib/visibility/withheld";
import { formatCost, formatPValue, formatStatistic, STATISTIC_DIGITS } from "@/lib/format/numbers";

const input = "rounded-md border border-slate-300 px-2 py-1.5";
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

/** 2–6 judge runs side by side against one label set, the reviewers' consensus or the gold values. */
export default async function CompareSetupsPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor, catalogue } = await requirePageProjectAccess(projectId, "export.read");
  const raw = await searchParams;
  const picked = (Array.isArray(raw.runIds) ? raw.runIds : raw.runIds ? [raw.runIds] : [])
    .flatMap((s) => s.split(","))
    .filter(Boolean);
  const one = (k: string) => (Array.isArray(raw[k]) ? raw[k][0] : raw[k]);
  const options = await calibrationOptions(prisma, actor, projectId);
  const runs = options.runs;
  const runLabels = runOptionLabels(runs);
  // What each task of the project's runs can be compared on (its verdict when it declares one, by default).
  const targetChoices = compareTargetChoices(
    catalogue,
    runs.map((r) => r.pipeline),
  );
  const target = one("target") || undefined;
  // The picker sends `reference=<label set id | consensus | gold>`; the API's `reference=…&labelSetId=` works too.
  const chosen = one("reference");
  const referenceValue =
    chosen === "consensus" || chosen === "gold"
      ? chosen
      : chosen && options.labelSets.some((s) => s.id === chosen)
        ? chosen
        : (one("labelSetId") ?? options.labelSets[0]?.id ?? "consensus");
  let report: CompareSetupsReport | null = null;
  let problem: string | null = null;
  if (picked.length > 0) {
    const parsed = compareSetupsQuerySchema.safeParse({
      runIds: picked.join(","),
      ...(target ? { target } : {}),
      ...(referenceValue === "consensus" || referenceValue === "gold"
        ? { reference: referenceValue }
        : { labelSetId: referenceValue }),
    });
    if (!parsed.success) problem = parsed.error.issues.map((i) => i.message).join(" ");
    else {
      try {
        report = await compareSetupsReport(prisma, actor, projectId, parsed.data);
      } catch (error) {
        if (!(
          isAppErrorCode(error, "not_found") ||
          isAppErrorCode(error, "invalid_request") ||
          error instanceof WithheldError
        ))
          throw error;
        problem = error.message;
      }
    }
  }
  const name = (runId: string) => {
    const index = report?.runs.findIndex((r) => r.id === runId) ?? -1;
    return index >= 0 ? `#${index + 1}` : runId;
  };

  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Compare judge setups" />
      {runs.length < 2 ? (
        <EmptyState title="Fewer than two runs">
          Run the judge twice (another endpoint, prompt version, frame settings or threshold) on the{" "}
          <Link href={`/projects/${projectId}/judge`} className="text-indigo-700 underline">
            Judge page
          </Link>
          , then compare the runs here.
        </EmptyState>
      ) : (
        <form method="get" className="flex flex-col gap-3 text-sm" data-testid="compare-setups-form">
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1">Runs (2–6, over the same videos)</legend>
            {runs.map((r) => (
              <div key={r.id} className="flex flex-wrap items-center gap-x-4 gap-y-1">
                <label className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    name="runIds"
                    value={r.id}
                    defaultChecked={picked.includes(r.id)}
                    data-testid="compare-run"
                  />
                  {runLabels.get(r.id)} · {r.videos} videos · {r.status}
                </label>
                {/* The same run's logprob-weighted scores as a setup of their own (when its endpoint requested logprobs). */}
                <label className="flex items-center gap-1 text-xs text-slate-600">
                  <input
                    type="checkbox"
                    name="runIds"
                    value={`${r.id}:expected`}
                    defaultChecked={picked.includes(`${r.id}:expected`)}
                    data-testid="compare-run-expected"
                  />
                  its expected (logprob-weighted) scores
                </label>
              </div>
            ))}
          </fieldset>
          {targetChoices.length > 0 && (
            <label className="flex items-center gap-2">
              <span>Compare on</span>
              <select name="target" defaultValue={target ?? ""} className={input} data-testid="compare-target">
                <option value="">the task&apos;s verdict (or its only target)</option>
                {targetChoices.map((t) => (
                  <option key={`${t.task}/${t.id}`} value={t.id}>
                    {t.task}: {t.label}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="flex items-center gap-2">
            <span>Against</span>
            <select name="reference" defaultValue={referenceValue} className={input} data-testid="compare-reference">
              {options.labelSets.map((s) => (
                <option key={s.id} value={s.id}>
                  label set: {s.name}
                </option>
              ))}
              <option value="consensus">the reviewers&apos; consensus</option>
              <option value="gold">the gold values (adjudicated)</option>
            </select>
            <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Compare</button>
          </label>
        </form>
      )}
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {report && <Report report={report} name={name} />}
    </div>
  );
}

function Report({ report, name }: { report: CompareSetupsReport; name: (id: string) => string }) {
  const byId = new Map(report.comparison.runs.map((r) => [r.runId, r]));
  const d = report.differs;
  const mark = (differs: boolean) => (differs ? "bg-amber-50" : undefined);
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
              {(
                [
                  [
                    "cost",
                    (r: CompareSetupsReport["runs"][number]) =>
                      r.costUsd === null
                        ? `unknown (${r.callsWithoutUsage} calls without usage)`
                        : formatCost(r.costUsd),
                    false,
                  ],
                  [
                    "tokens (prompt / completion)",
                    (r: CompareSetupsReport["runs"][number]) =>
                      r.tokens.prompt === null ? "unknown" : `${r.tokens.prompt} / ${r.tokens.completion}`,
                    false,
                  ],
                  ["calls", (r: CompareSetupsReport["runs"][number]) => String(r.calls), false],
                  [
                    "time (wall / summed latency, s)",
                    (r: CompareSetupsReport["runs"][number]) =>
                      `${f(r.wallSeconds, 1)} / ${r.latencySeconds.toFixed(1)}`,
                    false,
                  ],
                  [
                    "parse failures / failed steps",
                    (r: CompareSetupsReport["runs"][number]) => `${r.parseFailures} / ${r.failedSteps}`,
                    false,
                  ],
                  ["endpoint", (r: CompareSetupsReport["runs"][number]) => r.endpoint, d.endpoint],
                  ["model", (r: CompareSetupsReport["runs"][number]) => r.model, d.model],
                  [
                    "generation parameters",
                    (r: CompareSetupsReport["runs"][number]) => JSON.stringify(r.parameters),
                    d.parameters,
                  ],
                  [
                    "aggregation",
                    (r: CompareSetupsReport["runs"][number]) => r.aggregation ?? "default",
                    d.aggregation,
                  ],
                  ["verdict rule", (r: CompareSetupsReport["runs"][number]) => r.verdict ?? "default", d.verdict],
                  ["frame sets", (r: CompareSetupsReport["runs"][number]) => r.frameSets.join("; "), d.frameSets],
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
            </tbody>
          </table>
        </div>
      </Card>
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
      {report.templateDiffs.length > 0 && (
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
                      .filter(
                        (l, i, all) => l.op !== " " || all.slice(Math.max(0, i - 2), i + 3).some((x) => x.op !== " "),
                      )
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
      )}
    </>
  );
}
