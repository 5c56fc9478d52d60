import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
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
import { WithheldError } from "@/lib/visibility/withheld";
import { CompareSetupsReportView } from "@/components/calibration/compare-setups-report";

const input = "rounded-md border border-slate-300 px-2 py-1.5";

/** 2–6 judge runs side by side against one label set, the reviewers' consensus or the gold values. */
export default async function CompareSetupsPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { access, catalogue } = await requirePageProjectAccess(projectId, "export.read");
  const raw = await searchParams;
  const picked = (Array.isArray(raw.runIds) ? raw.runIds : raw.runIds ? [raw.runIds] : [])
    .flatMap((s) => s.split(","))
    .filter(Boolean);
  const one = (k: string) => (Array.isArray(raw[k]) ? raw[k][0] : raw[k]);
  const options = await calibrationOptions(prisma, access);
  const runs = options.runs;
  const runLabels = runOptionLabels(runs, catalogue);
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
        report = await compareSetupsReport(prisma, access, parsed.data);
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
        <CompareSetupsForm
          runs={runs}
          runLabels={runLabels}
          picked={picked}
          targetChoices={targetChoices}
          target={target}
          labelSets={options.labelSets}
          referenceValue={referenceValue}
        />
      )}
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {report && <CompareSetupsReportView report={report} name={name} />}
    </div>
  );
}

/** The runs to compare (each also with its expected scores), what to compare them on and against what. */
function CompareSetupsForm({
  runs,
  runLabels,
  picked,
  targetChoices,
  target,
  labelSets,
  referenceValue,
}: {
  runs: Awaited<ReturnType<typeof calibrationOptions>>["runs"];
  runLabels: ReturnType<typeof runOptionLabels>;
  picked: string[];
  targetChoices: ReturnType<typeof compareTargetChoices>;
  target: string | undefined;
  labelSets: Awaited<ReturnType<typeof calibrationOptions>>["labelSets"];
  referenceValue: string;
}) {
  return (
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
          {labelSets.map((s) => (
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
  );
}
