// The Judge page's form that starts a run: its state lives in `useRunStart` (held by the panel, so it outlives a
// change of pipeline), the form's fields and its answer in `RunStartForm`.
import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { chosenPromptVersions, PromptVersionPicker } from "@/components/prompts/prompt-version-picker";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";
import type { RunFormPipeline } from "@/lib/judge/runs/run-form";
import type { RunSettingsPart } from "@/components/tasks/run-settings-form";
import { ensembleOf, JudgesFields, ONE_JUDGE, panelOf, type JudgesValue } from "./judges-fields";
import type { RunDryRunAnswer } from "@/lib/judge/runs/runs.types";
import { RunEstimateSummary } from "./run-estimate";
import { sampledEstimate } from "@/lib/judge/runs/sampled-estimate";
import { INPUT_MODE_DESCRIPTIONS, INPUT_MODES, type InputMode } from "@/lib/judge/input-modes";
import { RunSweepField, SWEEP_CHOICES, SweepStartedNote, takesFrameCount, type SweepStarted } from "./run-sweep-field";

export interface Endpoint {
  id: string;
  name: string;
  model: string;
  baseUrl: string;
  hasApiKey: boolean;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  supportsBatchApi: boolean;
  /** How the endpoint's runs show videos unless a run names its own (lib/judge/input-modes.ts). */
  inputMode?: string;
}

interface RunStarted {
  id: string;
  videos: number;
  withoutFramesCount: number;
  beingDeletedCount: number;
  items?: number;
}

type VideoScope = "project" | "dimension" | "videos";

/** The run form's state and the request that starts a run with it. */
export function useRunStart({
  projectId,
  dimensions,
  pipeline,
  pipelineId,
  endpoints,
}: {
  projectId: string;
  dimensions: string[];
  pipeline: RunFormPipeline | undefined;
  pipelineId: string;
  endpoints: readonly Endpoint[] | undefined;
}) {
  const queryClient = useQueryClient();
  const [endpointId, setEndpointId] = useState("");
  const [batch, setBatch] = useState(false);
  const [scope, setScope] = useState<VideoScope>("project");
  const [dimension, setDimension] = useState(dimensions[0] ?? "");
  const [videoIds, setVideoIds] = useState("");
  const [judges, setJudges] = useState<JudgesValue>(ONE_JUDGE);
  // Per pipeline: a template's prompt version for the next run (absent: shipped).
  const [promptVersions, setPromptVersions] = useState<Record<string, Record<string, string>>>({});
  const chosenEndpoint = endpoints?.find((e) => e.id === endpointId) ?? endpoints?.[0];
  const panel = panelOf(judges, endpoints ?? []);
  const ensemble = ensembleOf(judges, panel);
  const [budget, setBudget] = useState("");
  // The run's input mode; "" for the endpoint's. A sweep sets each run's own, so it sends none.
  const [inputMode, setInputMode] = useState<InputMode | "">("");
  // A sweep's choice (SWEEP_CHOICES); "" for one run. Frame counts only where the pipeline's settings hold them.
  const [sweepChoice, setSweep] = useState("");
  const sweep = SWEEP_CHOICES.find(
    (c) => c.id === sweepChoice && (!c.needsFrames || takesFrameCount(pipeline?.defaults)),
  )?.sweep;
  const budgetUsd = Number(budget);
  const budgetValid = budget.trim() === "" || (Number.isFinite(budgetUsd) && budgetUsd > 0);
  const body = (part: RunSettingsPart) => ({
    pipeline: pipeline?.id,
    endpointId: judges.judges === "panel" ? panel[0] : endpointId || endpoints?.[0]?.id,
    ...(ensemble ? { ensemble } : {}),
    ...(scope === "dimension" ? { dimension } : {}),
    ...(scope === "videos" ? { videoIds: videoIds.split(/[\s,]+/).filter(Boolean) } : {}),
    ...part.request,
    ...(chosenPromptVersions(promptVersions[pipelineId] ?? {})
      ? { promptVersions: chosenPromptVersions(promptVersions[pipelineId] ?? {}) }
      : {}),
    ...(batch && chosenEndpoint?.supportsBatchApi ? { batch: true } : {}),
    ...(budget.trim() !== "" && budgetValid ? { budgetUsd } : {}),
    // A sweep of input modes sets each run's; any other run (a frame-count sweep's too) keeps the mode chosen.
    ...(inputMode && !(sweep && "inputModes" in sweep) ? { inputMode } : {}),
  });
  const start = useMutation({
    mutationFn: (part: RunSettingsPart) =>
      postJson<RunStarted | SweepStarted>(`/api/v1/projects/${projectId}/runs`, {
        ...body(part),
        ...(sweep && !ensemble ? { sweep } : {}),
      }),
    onSuccess: () => refetchAfterWrite(queryClient, ["runs", projectId]),
  });
  // The cost before the run: the same request as a dry run, which starts nothing. A samples run is asked as its
  // plain run (the dry run estimates plain runs) and shown times its samples.
  const estimateRequest = (part: RunSettingsPart) => {
    const { ensemble: _ensemble, ...plain } = body(part);
    return { ...plain, dryRun: true };
  };
  const estimate = useMutation({
    mutationFn: (request: ReturnType<typeof estimateRequest>) =>
      postJson<RunDryRunAnswer>(`/api/v1/projects/${projectId}/runs`, request),
  });
  return {
    endpointId,
    setEndpointId,
    batch,
    setBatch,
    scope,
    setScope,
    dimension,
    setDimension,
    videoIds,
    setVideoIds,
    judges,
    setJudges,
    promptVersions,
    setPromptVersions,
    chosenEndpoint,
    panel,
    start,
    budget,
    setBudget,
    budgetValid,
    estimate,
    estimateRequest,
    sweepChoice,
    setSweep,
    inputMode,
    setInputMode,
  };
}

type RunStart = ReturnType<typeof useRunStart>;

/** The form that starts a run: pipeline, its settings, endpoint and judges, videos, prompts, mode, sweep and budget. */
export function RunStartForm({
  run,
  fields,
  part,
  projectId,
  dimensions,
  pipelines,
  pipelineId,
  setPipelineId,
  endpoints,
}: {
  run: RunStart;
  fields: ReactNode;
  part: RunSettingsPart;
  projectId: string;
  dimensions: string[];
  pipelines: RunFormPipeline[];
  pipelineId: string;
  setPipelineId: (pipelineId: string) => void;
  endpoints: { data?: Endpoint[]; isSuccess: boolean };
}) {
  const pipeline = pipelines.find((p) => p.id === pipelineId) ?? pipelines[0];
  const { start, panel } = run;
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        start.mutate(part);
      }}
    >
      <PipelineSelect pipelines={pipelines} pipelineId={pipelineId} setPipelineId={setPipelineId} />
      {fields}
      <EndpointSelect run={run} label={pipeline?.endpointLabel ?? "Endpoint"} endpoints={endpoints.data ?? []} />
      <JudgesFields value={run.judges} setValue={run.setJudges} endpoints={endpoints.data ?? []} />
      {run.chosenEndpoint?.supportsBatchApi && <BatchField run={run} />}
      <VideoScopeFields run={run} dimensions={dimensions} allVideosLabel={pipeline?.allVideosLabel} />
      <PromptVersionPicker
        projectId={projectId}
        pipeline={pipelineId}
        value={run.promptVersions[pipelineId] ?? {}}
        onChange={(next) => run.setPromptVersions((all) => ({ ...all, [pipelineId]: next }))}
      />
      <InputModeField run={run} />
      <RunSweepField run={run} framesSwept={takesFrameCount(pipeline?.defaults)} />
      <BudgetFields run={run} part={part} ready={!!endpoints.data?.length && part.ready} />
      <button
        className={buttonClass()}
        disabled={
          start.isPending ||
          !endpoints.data?.length ||
          !part.ready ||
          !run.budgetValid ||
          (run.judges.judges === "panel" && (panel.length < 2 || panel.length > 5))
        }
      >
        Start run
      </button>
      {!endpoints.data?.length && endpoints.isSuccess && <span className="text-slate-500">Add an endpoint first.</span>}
      {part.notice}
      {start.data &&
        ("compareUrl" in start.data ? (
          <SweepStartedNote started={start.data} />
        ) : (
          <RunStartedNote
            started={start.data}
            itemNoun={pipeline?.itemNoun ?? "item"}
            pendingHref={`/projects/${projectId}/pending${part.pendingQuery ? `?${part.pendingQuery}` : ""}`}
          />
        ))}
      {start.error && (
        <span role="alert" className="text-red-700">
          {start.error.message}
        </span>
      )}
    </form>
  );
}

/** The pipeline the run judges with; its settings fields follow it. */
function PipelineSelect({
  pipelines,
  pipelineId,
  setPipelineId,
}: {
  pipelines: RunFormPipeline[];
  pipelineId: string;
  setPipelineId: (pipelineId: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1">
      Pipeline
      <select
        className="rounded-md border border-slate-300 px-2 py-1.5"
        value={pipelineId}
        onChange={(e) => setPipelineId(e.target.value)}
        data-testid="run-pipeline"
      >
        {pipelines.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The endpoint that judges (the pipeline names what it is for). */
function EndpointSelect({ run, label, endpoints }: { run: RunStart; label: string; endpoints: readonly Endpoint[] }) {
  return (
    <label className="flex flex-col gap-1">
      {label}
      <select
        className="rounded-md border border-slate-300 px-2 py-1.5"
        value={run.endpointId}
        onChange={(e) => run.setEndpointId(e.target.value)}
        data-testid="run-endpoint"
      >
        {endpoints.map((e) => (
          <option key={e.id} value={e.id}>
            {e.name} ({e.model})
          </option>
        ))}
      </select>
    </label>
  );
}

/** Whether the run goes through the endpoint's Batch API (offered when the endpoint has one). */
function BatchField({ run }: { run: RunStart }) {
  return (
    <label className="flex items-center gap-2 self-center pt-5">
      <input
        type="checkbox"
        checked={run.batch}
        onChange={(e) => run.setBatch(e.target.checked)}
        data-testid="run-batch"
      />
      batch (half the price, within 24 hours)
    </label>
  );
}

/**
 * How the run shows videos to the judge: the endpoint's mode unless another is chosen. A sweep of input modes sets
 * each run's, and says so; the mode chosen comes back when the sweep is left.
 */
function InputModeField({ run }: { run: RunStart }) {
  const modes = SWEEP_CHOICES.find((c) => c.id === run.sweepChoice && "inputModes" in c.sweep)?.sweep;
  const swept = modes && "inputModes" in modes ? modes.inputModes : null;
  return (
    <label className="flex flex-col gap-1">
      Input mode
      <select
        className="rounded-md border border-slate-300 px-2 py-1.5"
        value={swept ? "swept" : run.inputMode}
        disabled={!!swept}
        onChange={(e) => run.setInputMode(e.target.value as InputMode | "")}
        data-testid="run-input-mode"
      >
        {swept && <option value="swept">each run its own ({swept.join(", ")})</option>}
        <option value="">the endpoint&apos;s ({run.chosenEndpoint?.inputMode ?? "images"})</option>
        {INPUT_MODES.map((mode) => (
          <option key={mode} value={mode} title={INPUT_MODE_DESCRIPTIONS[mode]}>
            {mode}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The run's budget, and its cost estimate before it starts (a dry run of the same request). */
function BudgetFields({ run, part, ready }: { run: RunStart; part: RunSettingsPart; ready: boolean }) {
  const { estimate } = run;
  const request = run.estimateRequest(part);
  // An estimate is of the request it was asked for: once the form changes it is left out, not shown as the new one's.
  // The budget is no part of the cost, so changing it keeps the estimate.
  const asked = (r: Record<string, unknown> | undefined) => JSON.stringify(r && { ...r, budgetUsd: undefined });
  const current = estimate.data && asked(estimate.variables) === asked(request);
  const samples = run.judges.judges === "samples" ? run.judges.samples : 1;
  const unavailable =
    run.judges.judges === "panel"
      ? "A panel's cost is its judges' runs: estimate each judge as one run."
      : !ready
        ? "Choose an endpoint and the run's settings first."
        : null;
  return (
    <>
      <label className="flex flex-col gap-1">
        Budget (USD, optional)
        <input
          className={`w-28 rounded-md border px-2 py-1.5 ${run.budgetValid ? "border-slate-300" : "border-red-500"}`}
          inputMode="decimal"
          value={run.budget}
          onChange={(e) => run.setBudget(e.target.value)}
          aria-invalid={!run.budgetValid}
          data-testid="run-budget-input"
        />
      </label>
      <button
        type="button"
        className={buttonClass("secondary")}
        disabled={!!unavailable || !run.budgetValid || estimate.isPending}
        onClick={() => estimate.mutate(request)}
        data-testid="run-estimate-button"
      >
        Estimate cost
      </button>
      {unavailable && (
        <span className="text-slate-500" data-testid="run-estimate-unavailable">
          {unavailable}
        </span>
      )}
      {current && estimate.data?.estimate && (
        <div className="basis-full" data-testid="run-estimate-shown">
          {samples > 1 && (
            <p className="text-xs text-slate-500" data-testid="run-estimate-samples">
              {samples} samples × one run&apos;s estimate:
            </p>
          )}
          <RunEstimateSummary estimate={sampledEstimate(estimate.data.estimate, samples)} />
        </div>
      )}
      {current && estimate.data?.estimateError && (
        <span role="alert" className="basis-full text-red-700">
          No estimate: {estimate.data.estimateError}
        </span>
      )}
      {estimate.error && asked(estimate.variables) === asked(request) && (
        <span role="alert" className="basis-full text-red-700">
          {estimate.error.message}
        </span>
      )}
    </>
  );
}

/** Which videos the run takes: every one with frames, one dimension, or the ids typed. */
function VideoScopeFields({
  run,
  dimensions,
  allVideosLabel,
}: {
  run: RunStart;
  dimensions: string[];
  allVideosLabel: string | undefined;
}) {
  return (
    <>
      <label className="flex flex-col gap-1">
        Videos
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={run.scope}
          onChange={(e) => run.setScope(e.target.value as VideoScope)}
        >
          <option value="project">{allVideosLabel ?? "every video with frames"}</option>
          <option value="dimension">one dimension</option>
          <option value="videos">these video ids</option>
        </select>
      </label>
      {run.scope === "dimension" && (
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={run.dimension}
          onChange={(e) => run.setDimension(e.target.value)}
        >
          {dimensions.map((d) => (
            <option key={d}>{d}</option>
          ))}
        </select>
      )}
      {run.scope === "videos" && (
        <input
          className="w-72 rounded-md border border-slate-300 px-2 py-1.5"
          placeholder="video ids, comma separated"
          value={run.videoIds}
          onChange={(e) => run.setVideoIds(e.target.value)}
        />
      )}
    </>
  );
}

/** What the started run took, and what it left out (no frame set yet, being deleted). */
function RunStartedNote({
  started,
  itemNoun,
  pendingHref,
}: {
  started: RunStarted;
  itemNoun: string;
  pendingHref: string;
}) {
  return (
    <span className="text-slate-600" data-testid="run-started">
      Started on {started.videos} video{started.videos === 1 ? "" : "s"}
      {started.items !== undefined ? ` (${started.items} ${itemNoun}${started.items === 1 ? "" : "s"})` : ""}
      {started.withoutFramesCount > 0 && (
        <>
          ; {started.withoutFramesCount} left out for want of their frame set (
          <Link className="text-indigo-700 underline" href={pendingHref}>
            extract them
          </Link>
          )
        </>
      )}
      {started.beingDeletedCount > 0 && <>; {started.beingDeletedCount} left out because they are being deleted</>}.
    </span>
  );
}
