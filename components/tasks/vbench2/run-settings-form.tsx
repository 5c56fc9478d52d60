"use client";

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
export function Vbench2RunSettingsForm({ state, setState, endpoints, children }: RunSettingsFormProps) {
  const s = (state as Vbench2RunState | undefined) ?? initial;
  const update = (patch: Partial<Vbench2RunState>) => setState({ ...s, ...patch });
  const toggle = (dimension: string, on: boolean) => update({ dimensions: on ? [...s.dimensions, dimension] : s.dimensions.filter((d) => d !== dimension) });
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
              <input type="checkbox" checked={s.dimensions.includes(dimension)} onChange={(e) => toggle(dimension, e.target.checked)} />
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
          <option value="corrected">with its one quirk corrected (Dynamic Spatial Relationship)</option>
        </select>
      </label>
    </>
  );
  return children({ fields, part: { request: { settings }, ready: true, pendingQuery: "uniform=64&videos=all" } });
}
