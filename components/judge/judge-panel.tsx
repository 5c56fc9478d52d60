"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { chosenPromptVersions, PromptVersionPicker } from "@/components/prompts/prompt-version-picker";
import { buttonClass } from "@/components/class-names";
import { apiFetch, postJson } from "@/lib/api-client";
import { RunProgress } from "./run-progress";
import { runNameOfRow } from "@/lib/runs/run-name";
import type { RunFormPipeline } from "@/lib/judge/run-form";
import { runSettingsFormOf } from "@/components/tasks/judge-forms";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import type { RunSettingsPart } from "@/components/tasks/run-settings-form";

interface Endpoint {
  id: string;
  name: string;
  model: string;
  baseUrl: string;
  hasApiKey: boolean;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  supportsBatchApi: boolean;
}
interface RunRow {
  id: string;
  status: string;
  pipeline: string;
  simulated: boolean;
  batchMode: boolean;
  createdAt: string;
  /** The endpoint's name and model when the run started. */
  endpointSnapshot?: unknown;
  endpoint: { name: string; model: string };
  _count: { videos: number };
  /** An ensemble run's settings (lib/ensembles); a member run names its parent. */
  ensemble?:
    | { kind: "samples"; samples: number; temperature: number }
    | { kind: "panel"; combine: string; endpointIds: string[] }
    | null;
  parentRunId?: string | null;
}
/** Start a run (whole project, a dimension, or chosen videos) and follow the runs live. The pipelines and their controls come from the task registry. */
export function JudgePanel({
  projectId,
  canManage,
  dimensions,
  pipelines,
  pipelineId: chosenPipelineId,
  onPipelineChange,
}: {
  projectId: string;
  canManage: boolean;
  dimensions: string[];
  /** The pipelines the form offers, in order, with the project's defaults for their runs (lib/judge/run-form.ts). */
  pipelines: RunFormPipeline[];
  /** The chosen pipeline, when the page shows things that follow it (its defaults card); else the panel keeps it. */
  pipelineId?: string;
  onPipelineChange?: (pipelineId: string) => void;
}) {
  const queryClient = useQueryClient();
  const endpoints = useQuery({
    queryKey: ["endpoints", projectId],
    queryFn: () =>
      apiFetch<{ endpoints: Endpoint[] }>(`/api/v1/projects/${projectId}/endpoints`).then((b) => b.endpoints),
  });
  const runs = useQuery({
    queryKey: ["runs", projectId],
    queryFn: () => apiFetch<{ runs: RunRow[] }>(`/api/v1/projects/${projectId}/runs`).then((b) => b.runs),
    refetchInterval: (query) =>
      query.state.data?.some((r) => r.status === "queued" || r.status === "running") ? 1500 : false,
  });
  const catalogue = useTaskCatalogue();
  const [endpointId, setEndpointId] = useState("");
  const [batch, setBatch] = useState(false);
  const [scope, setScope] = useState<"project" | "dimension" | "videos">("project");
  const [dimension, setDimension] = useState(dimensions[0] ?? "");
  const [videoIds, setVideoIds] = useState("");
  const [ownPipelineId, setOwnPipelineId] = useState(pipelines[0]?.id ?? "");
  const pipelineId = chosenPipelineId ?? ownPipelineId;
  const setPipelineId = onPipelineChange ?? setOwnPipelineId;
  // One answer per score, self-consistency samples on the endpoint, or a panel of endpoints (lib/ensembles).
  const [judges, setJudges] = useState<"one" | "samples" | "panel">("one");
  const [samples, setSamples] = useState(5);
  const [temperature, setTemperature] = useState(0.7);
  const [panelIds, setPanelIds] = useState<string[]>([]);
  const [combine, setCombine] = useState<"mean" | "majority" | "minimum">("mean");
  const pipeline = pipelines.find((p) => p.id === pipelineId) ?? pipelines[0];
  // Per pipeline: a template's prompt version for the next run (absent: shipped).
  const [promptVersions, setPromptVersions] = useState<Record<string, Record<string, string>>>({});
  // Per task folder: the state of its run controls, kept while another task's pipeline is chosen.
  const [taskFormStates, setTaskFormStates] = useState<Record<string, unknown>>({});
  const defaults = Object.fromEntries(pipelines.map((p) => [p.id, p.defaults]));
  const chosenEndpoint = endpoints.data?.find((e) => e.id === endpointId) ?? endpoints.data?.[0];
  const panel = (endpoints.data ?? []).filter((e) => panelIds.includes(e.id)).map((e) => e.id);
  const ensemble =
    judges === "samples"
      ? { kind: "samples", samples, temperature }
      : judges === "panel"
        ? { kind: "panel", endpointIds: panel, combine }
        : undefined;
  const start = useMutation({
    mutationFn: (part: RunSettingsPart) =>
      postJson<{ id: string; videos: number; withoutFramesCount: number; beingDeletedCount: number; items?: number }>(
        `/api/v1/projects/${projectId}/runs`,
        {
          pipeline: pipeline?.id,
          endpointId: judges === "panel" ? panel[0] : endpointId || endpoints.data?.[0]?.id,
          ...(ensemble ? { ensemble } : {}),
          ...(scope === "dimension" ? { dimension } : {}),
          ...(scope === "videos" ? { videoIds: videoIds.split(/[\s,]+/).filter(Boolean) } : {}),
          ...part.request,
          ...(chosenPromptVersions(promptVersions[pipelineId] ?? {})
            ? { promptVersions: chosenPromptVersions(promptVersions[pipelineId] ?? {}) }
            : {}),
          ...(batch && chosenEndpoint?.supportsBatchApi ? { batch: true } : {}),
        },
      ),
    onSuccess: () => refetchAfterWrite(queryClient, ["runs", projectId]),
  });

  const renderForm = ({ fields, part }: { fields: ReactNode; part: RunSettingsPart }) => {
    const pendingHref = `/projects/${projectId}/pending${part.pendingQuery ? `?${part.pendingQuery}` : ""}`;
    const itemNoun = pipeline?.itemNoun ?? "item";
    return (
      <form
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          start.mutate(part);
        }}
      >
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
        {fields}
        <label className="flex flex-col gap-1">
          {pipeline?.endpointLabel ?? "Endpoint"}
          <select
            className="rounded-md border border-slate-300 px-2 py-1.5"
            value={endpointId}
            onChange={(e) => setEndpointId(e.target.value)}
            data-testid="run-endpoint"
          >
            {(endpoints.data ?? []).map((e) => (
              <option key={e.id} value={e.id}>
                {e.name} ({e.model})
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Judges
          <select
            className="rounded-md border border-slate-300 px-2 py-1.5"
            value={judges}
            onChange={(e) => setJudges(e.target.value as typeof judges)}
            data-testid="run-judges"
          >
            <option value="one">one answer per score</option>
            <option value="samples">samples (self-consistency)</option>
            <option value="panel">a panel of endpoints</option>
          </select>
        </label>
        {judges === "samples" && (
          <>
            <label className="flex flex-col gap-1">
              Samples
              <input
                type="number"
                min={1}
                max={10}
                className="w-20 rounded-md border border-slate-300 px-2 py-1.5"
                value={samples}
                onChange={(e) => setSamples(Number(e.target.value))}
                data-testid="run-samples"
              />
            </label>
            <label className="flex flex-col gap-1">
              at temperature
              <input
                type="number"
                min={0}
                max={2}
                step={0.1}
                className="w-20 rounded-md border border-slate-300 px-2 py-1.5"
                value={temperature}
                onChange={(e) => setTemperature(Number(e.target.value))}
                data-testid="run-temperature"
              />
            </label>
          </>
        )}
        {judges === "panel" && (
          <fieldset className="flex flex-col gap-1" data-testid="run-panel">
            <legend>Panel (2–5 endpoints)</legend>
            <div className="flex flex-wrap gap-x-3">
              {(endpoints.data ?? []).map((e) => (
                <label key={e.id} className="flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={panelIds.includes(e.id)}
                    onChange={(ev) =>
                      setPanelIds((ids) => (ev.target.checked ? [...ids, e.id] : ids.filter((id) => id !== e.id)))
                    }
                  />
                  {e.name}
                </label>
              ))}
            </div>
            <select
              className="rounded-md border border-slate-300 px-2 py-1.5"
              value={combine}
              onChange={(e) => setCombine(e.target.value as typeof combine)}
              aria-label="Combine the judges by"
              data-testid="run-combine"
            >
              <option value="mean">combined by mean</option>
              <option value="majority">combined by majority</option>
              <option value="minimum">combined by the least favourable value</option>
            </select>
          </fieldset>
        )}
        {chosenEndpoint?.supportsBatchApi && (
          <label className="flex items-center gap-2 self-center pt-5">
            <input
              type="checkbox"
              checked={batch}
              onChange={(e) => setBatch(e.target.checked)}
              data-testid="run-batch"
            />
            batch (half the price, within 24 hours)
          </label>
        )}
        <label className="flex flex-col gap-1">
          Videos
          <select
            className="rounded-md border border-slate-300 px-2 py-1.5"
            value={scope}
            onChange={(e) => setScope(e.target.value as typeof scope)}
          >
            <option value="project">{pipeline?.allVideosLabel ?? "every video with frames"}</option>
            <option value="dimension">one dimension</option>
            <option value="videos">these video ids</option>
          </select>
        </label>
        {scope === "dimension" && (
          <select
            className="rounded-md border border-slate-300 px-2 py-1.5"
            value={dimension}
            onChange={(e) => setDimension(e.target.value)}
          >
            {dimensions.map((d) => (
              <option key={d}>{d}</option>
            ))}
          </select>
        )}
        {scope === "videos" && (
          <input
            className="w-72 rounded-md border border-slate-300 px-2 py-1.5"
            placeholder="video ids, comma separated"
            value={videoIds}
            onChange={(e) => setVideoIds(e.target.value)}
          />
        )}
        <PromptVersionPicker
          projectId={projectId}
          pipeline={pipelineId}
          value={promptVersions[pipelineId] ?? {}}
          onChange={(next) => setPromptVersions((all) => ({ ...all, [pipelineId]: next }))}
        />
        <button
          className={buttonClass()}
          disabled={
            start.isPending ||
            !endpoints.data?.length ||
            !part.ready ||
            (judges === "panel" && (panel.length < 2 || panel.length > 5))
          }
        >
          Start run
        </button>
        {!endpoints.data?.length && endpoints.isSuccess && (
          <span className="text-slate-500">Add an endpoint first.</span>
        )}
        {part.notice}
        {start.data && (
          <span className="text-slate-600" data-testid="run-started">
            Started on {start.data.videos} video{start.data.videos === 1 ? "" : "s"}
            {start.data.items !== undefined
              ? ` (${start.data.items} ${itemNoun}${start.data.items === 1 ? "" : "s"})`
              : ""}
            {start.data.withoutFramesCount > 0 && (
              <>
                ; {start.data.withoutFramesCount} left out for want of their frame set (
                <Link className="text-indigo-700 underline" href={pendingHref}>
                  extract them
                </Link>
                )
              </>
            )}
            {start.data.beingDeletedCount > 0 && (
              <>; {start.data.beingDeletedCount} left out because they are being deleted</>
            )}
            .
          </span>
        )}
        {start.error && (
          <span role="alert" className="text-red-700">
            {start.error.message}
          </span>
        )}
      </form>
    );
  };
  const SettingsForm = pipeline ? runSettingsFormOf(catalogue, pipeline.id) : null;

  return (
    <div className="flex flex-col gap-5">
      {canManage &&
        (SettingsForm && pipeline ? (
          // eslint-disable-next-line react-hooks/static-components -- a view looked up in the task registry (a module constant), not a component made during render
          <SettingsForm
            projectId={projectId}
            pipeline={pipeline.id}
            defaults={defaults}
            state={taskFormStates[pipeline.folderId]}
            setState={(next) => setTaskFormStates((all) => ({ ...all, [pipeline.folderId]: next }))}
            endpoints={endpoints.data ?? []}
          >
            {renderForm}
          </SettingsForm>
        ) : (
          renderForm({ fields: null, part: { request: {}, ready: true } })
        ))}
      {runs.data?.length === 0 && <p className="text-sm text-slate-500">No runs yet.</p>}
      <ul className="flex flex-col gap-3" data-testid="run-list">
        {/* An ensemble's member runs are listed on the ensemble's run page, not here. */}
        {runs.data
          ?.filter((run) => !run.parentRunId)
          .map((run) => (
            <li
              key={run.id}
              className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
              data-testid="run"
              data-status={run.status}
            >
              <div className="mb-2 flex flex-wrap items-center gap-3">
                <Link href={`/projects/${projectId}/runs/${run.id}`} className="font-medium text-indigo-700 underline">
                  {runNameOfRow(run, catalogue)}
                </Link>
                <span className="text-slate-600">{run._count.videos} videos</span>
                {run.ensemble && (
                  <span
                    className="rounded bg-violet-100 px-1.5 text-xs text-violet-800"
                    data-testid="run-ensemble-badge"
                  >
                    {run.ensemble.kind === "samples"
                      ? `${run.ensemble.samples} samples at T ${run.ensemble.temperature}`
                      : `panel of ${run.ensemble.endpointIds.length} (${run.ensemble.combine})`}
                  </span>
                )}
                {run.simulated && (
                  <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">simulated judgments</span>
                )}
                {run.batchMode && (
                  <span className="rounded bg-sky-100 px-1.5 text-xs text-sky-800" data-testid="run-batch-badge">
                    batch
                  </span>
                )}
              </div>
              <RunProgress runId={run.id} canManage={canManage} compact />
            </li>
          ))}
      </ul>
    </div>
  );
}
