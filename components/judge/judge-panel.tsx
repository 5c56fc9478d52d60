"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import type { RunSettingsPart } from "@/components/tasks/run-settings-form";
import { apiFetch } from "@/lib/api-client";
import type { RunFormPipeline } from "@/lib/judge/runs/run-form";
import { runSettingsFormOf } from "@/components/tasks/judge-forms";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { RunList, type RunRow } from "./run-list";
import { RunManifestForm } from "./run-manifest-form";
import { RunStartForm, useRunStart, type Endpoint } from "./run-start-form";

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
  /** The pipelines the form offers, in order, with the project's defaults for their runs (lib/judge/runs/run-form.ts). */
  pipelines: RunFormPipeline[];
  /** The chosen pipeline, when the page shows things that follow it (its defaults card); else the panel keeps it. */
  pipelineId?: string;
  onPipelineChange?: (pipelineId: string) => void;
}) {
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
  const [ownPipelineId, setOwnPipelineId] = useState(pipelines[0]?.id ?? "");
  const pipelineId = chosenPipelineId ?? ownPipelineId;
  const setPipelineId = onPipelineChange ?? setOwnPipelineId;
  const pipeline = pipelines.find((p) => p.id === pipelineId) ?? pipelines[0];
  const run = useRunStart({ projectId, dimensions, pipeline, pipelineId, endpoints: endpoints.data });
  // Per task folder: the state of its run controls, kept while another task's pipeline is chosen.
  const [taskFormStates, setTaskFormStates] = useState<Record<string, unknown>>({});
  const defaults = Object.fromEntries(pipelines.map((p) => [p.id, p.defaults]));

  const renderForm = ({ fields, part }: { fields: ReactNode; part: RunSettingsPart }) => (
    <RunStartForm
      run={run}
      fields={fields}
      part={part}
      projectId={projectId}
      dimensions={dimensions}
      pipelines={pipelines}
      pipelineId={pipelineId}
      setPipelineId={setPipelineId}
      endpoints={endpoints}
    />
  );
  const SettingsForm = pipeline ? runSettingsFormOf(catalogue, pipeline.id) : null;

  return (
    <div className="flex flex-col gap-5">
      {canManage &&
        (SettingsForm && pipeline ? (
          // eslint-disable-next-line react-hooks/static-components -- a view from the generated task views, not made in render
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
      {canManage && <RunManifestForm projectId={projectId} />}
      <RunList projectId={projectId} canManage={canManage} runs={runs.data} />
    </div>
  );
}
