"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiFetch } from "@/lib/api-client";
import type { Vbench2FrameReadiness } from "@/lib/tasks/vbench2/frame-readiness";
import { JUDGED_DIMENSIONS } from "@/lib/tasks/vbench2/vbench2-dimensions";
import type { RunSettingsFormProps } from "../run-settings-form";

interface Vbench2RunState {
  /** Empty: every judged dimension each video belongs to. */
  dimensions: string[];
  textEndpointId: string;
  variant: "faithful" | "corrected";
}

const initial: Vbench2RunState = { dimensions: [], textEndpointId: "", variant: "faithful" };

/** A VBench-2.0 run's dimensions, text LLM and prompt variant. */
export function Vbench2RunSettingsForm({ projectId, state, setState, endpoints, children }: RunSettingsFormProps) {
  const s = (state as Vbench2RunState | undefined) ?? initial;
  const update = (patch: Partial<Vbench2RunState>) => setState({ ...s, ...patch });
  const toggle = (dimension: string, on: boolean) =>
    update({ dimensions: on ? [...s.dimensions, dimension] : s.dimensions.filter((d) => d !== dimension) });
  const settings = {
    ...(s.dimensions.length ? { dimensions: JUDGED_DIMENSIONS.filter((d) => s.dimensions.includes(d)) } : {}),
    ...(s.textEndpointId ? { textEndpointId: s.textEndpointId } : {}),
    variant: s.variant,
  };
  const fields = (
    <>
      <fieldset className="flex flex-col gap-1" data-testid="run-vbench2-dimensions">
        <legend>Dimensions (none ticked: every one a video belongs to)</legend>
        <div className="flex max-w-xl flex-wrap gap-x-3 gap-y-1">
          {JUDGED_DIMENSIONS.map((dimension) => (
            <label key={dimension} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={s.dimensions.includes(dimension)}
                onChange={(e) => toggle(dimension, e.target.checked)}
              />
              {dimension.replace(/_/g, " ")}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex flex-col gap-1">
        Text LLM (four dimensions compare descriptions)
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={s.textEndpointId}
          onChange={(e) => update({ textEndpointId: e.target.value })}
          data-testid="run-vbench2-text-endpoint"
        >
          <option value="">the VLM itself</option>
          {endpoints.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name} ({e.model})
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Prompts
        <select
          className="rounded-md border border-slate-300 px-2 py-1.5"
          value={s.variant}
          onChange={(e) => update({ variant: e.target.value as Vbench2RunState["variant"] })}
          data-testid="run-vbench2-variant"
        >
          <option value="faithful">as VBench-2.0&apos;s code sends them (default)</option>
          <option value="corrected">with its bugs corrected (Dynamic Spatial Relationship, Complex Landscape)</option>
        </select>
      </label>
    </>
  );
  const frames = useQuery({
    queryKey: ["vbench2-frames", projectId],
    queryFn: () => apiFetch<Vbench2FrameReadiness>(`/api/v1/projects/${projectId}/vbench2-frames`),
  });
  const pendingQuery = frames.data?.pendingQuery ?? "uniform=64&videos=all";
  // A run judges only videos with the 64 frames: with none it could not start.
  const ready = !frames.data || frames.data.lacking < frames.data.videos;
  return children({
    fields,
    part: {
      request: { settings },
      ready,
      notice: frames.data ? <FramesNotice projectId={projectId} readiness={frames.data} /> : undefined,
      pendingQuery,
    },
  });
}

/** How many videos lack VBench's 64 uniform frames (the run leaves them out), with a link to extract them. */
function FramesNotice({ projectId, readiness }: { projectId: string; readiness: Vbench2FrameReadiness }) {
  const { videos, lacking, pendingQuery } = readiness;
  if (videos === 0) {
    return (
      <span className="text-slate-500" data-testid="run-vbench2-frames">
        Import videos first.
      </span>
    );
  }
  if (lacking === 0) {
    return (
      <span className="text-slate-500" data-testid="run-vbench2-frames">
        Every video has VBench&apos;s 64 uniform frames.
      </span>
    );
  }
  return (
    <span className="text-amber-800" data-testid="run-vbench2-frames">
      {lacking === videos
        ? `None of the ${videos} videos has VBench's 64 uniform frames: a run needs them. `
        : `${lacking} of ${videos} videos lack VBench's 64 uniform frames: a run leaves them out. `}
      <Link
        className="text-indigo-700 underline"
        href={`/projects/${projectId}/pending?${pendingQuery}`}
        data-testid="run-vbench2-extract"
      >
        Extract 64 uniform frames
      </Link>
    </span>
  );
}
