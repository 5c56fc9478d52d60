"use client";

import { Fragment, useState, type ReactNode } from "react";
import type { RunFormPipeline } from "@/lib/judge/runs/run-form";
import { JudgePanel } from "./judge-panel";

/**
 * The Judge page: the run form beside the endpoints and the defaults card of the pipeline chosen in the
 * form (a VBench-2.0 run shows VBench-2.0's defaults, not hallucination's). The cards are rendered by
 * the server; this shows the chosen one.
 */
export function JudgeLayout({
  projectId,
  canManage,
  dimensions,
  pipelines,
  endpointsCard,
  defaultsCards,
}: {
  projectId: string;
  canManage: boolean;
  dimensions: string[];
  pipelines: RunFormPipeline[];
  endpointsCard: ReactNode;
  defaultsCards: { pipelineId: string; card: ReactNode }[];
}) {
  const [pipelineId, setPipelineId] = useState(pipelines[0]?.id ?? "");
  return (
    <div className="grid gap-5 lg:grid-cols-[1fr_24rem]">
      <JudgePanel
        projectId={projectId}
        canManage={canManage}
        dimensions={dimensions}
        pipelines={pipelines}
        pipelineId={pipelineId}
        onPipelineChange={setPipelineId}
      />
      <div className="flex flex-col gap-5">
        {endpointsCard}
        {defaultsCards
          .filter((entry) => entry.pipelineId === pipelineId)
          .map((entry) => (
            <Fragment key={entry.pipelineId}>{entry.card}</Fragment>
          ))}
      </div>
    </div>
  );
}
