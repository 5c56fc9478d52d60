/** The Agreement page's filter form: the video filters of the run it reads, the thresholds, which judgments count and what the judge is measured against. */
import { ImpliedValuesSwitch } from "@/components/agreement/implied-values-switch";
import { VideoFilterFields } from "@/components/videos/video-filter-fields";
import type { AgreementPageData } from "@/components/agreement/agreement-page-data";
import { runName } from "@/lib/run-records/run-name";
import type { DeclarationCatalogue } from "@/lib/task-modules/declaration-catalogue";

const input = "rounded-md border border-slate-300 px-2 py-1.5";

export function AgreementFilterForm({
  data,
  raw,
  catalogue,
}: {
  data: AgreementPageData;
  raw: Record<string, string>;
  catalogue: DeclarationCatalogue;
}) {
  const { hidden, view, runs, dimensions, models, task, report } = data;
  const { threshold, overallThreshold, presenceThreshold, independent, truth, implied } = data.query;
  return (
    <form method="get" className="flex flex-wrap items-end gap-3 text-sm" data-testid="agreement-filters">
      {hidden.map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {view === "details" && <input type="hidden" name="view" value="details" />}
      <VideoFilterFields
        values={raw}
        dimensions={dimensions}
        models={models}
        runs={runs.map((r) => ({
          id: r.id,
          label:
            r.label ??
            runName(
              {
                pipeline: r.pipeline ?? "",
                endpointName: r.endpointName,
                model: r.model,
                createdAt: r.createdAt,
              },
              catalogue,
            ),
        }))}
        noRunLabel="every run"
        task={task}
      />
      <label className="flex flex-col gap-1">
        <span>Score threshold</span>
        <input
          name="threshold"
          type="number"
          min={0}
          max={10}
          step={0.5}
          defaultValue={threshold}
          className={`${input} w-24`}
        />
      </label>
      <label className="flex flex-col gap-1">
        <span>Overall below</span>
        <input
          name="overallThreshold"
          type="number"
          min={0}
          max={100}
          step={1}
          defaultValue={overallThreshold}
          className={`${input} w-24`}
        />
      </label>
      <label className="flex flex-col gap-1">
        <span>Presence: judge ≥ t</span>
        <input
          name="presenceThreshold"
          type="number"
          step={0.5}
          defaultValue={presenceThreshold ?? report?.presence[0]?.threshold ?? ""}
          className={`${input} w-24`}
          data-testid="presence-threshold-input"
        />
      </label>
      <label className="flex flex-col gap-1">
        <span>Judgments</span>
        <select name="independent" defaultValue={independent} className={input} data-testid="independent-toggle">
          <option value="only">independent only</option>
          <option value="all">all, with accepted judge values</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span>Judge measured against</span>
        <select name="truth" defaultValue={truth} className={input} data-testid="truth-select">
          <option value="consensus">reviewers&apos; consensus</option>
          <option value="gold">gold (adjudicated)</option>
        </select>
      </label>
      <ImpliedValuesSwitch included={implied === "include"} />
      <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Apply</button>
    </form>
  );
}
