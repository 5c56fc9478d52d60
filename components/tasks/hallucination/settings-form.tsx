"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch } from "@/lib/api-client";
import type { DefaultsFormProps } from "../run-settings-form";

interface Settings {
  aggregation: "mean-max" | "max-max" | "mean-mean";
  verdict: { on: "max_category" | "overall"; threshold: number };
}

/** The project's default score aggregation and yes/no rule for new hallucination runs. */
export function HallucinationSettingsForm({ projectId, initial }: DefaultsFormProps) {
  // The hallucination pipeline's settings schema parsed it (lib/judge/runs/run-form.ts).
  const [settings, setSettings] = useState(initial as Settings);
  const save = useMutation({
    mutationFn: () =>
      apiFetch(`/api/v1/projects/${projectId}/judge-settings/hallucination`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(settings),
      }),
  });
  const field = "rounded-md border border-slate-300 px-2 py-1.5 text-sm";
  return (
    <form
      className="flex flex-col gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <label className="flex flex-col gap-1">
        S and D from category scores
        <select
          className={field}
          value={settings.aggregation}
          onChange={(e) => setSettings({ ...settings, aggregation: e.target.value as Settings["aggregation"] })}
        >
          <option value="mean-max">mean over categories of the max over key frames/clusters</option>
          <option value="max-max">max over categories and key frames/clusters</option>
          <option value="mean-mean">mean over categories and key frames/clusters</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Hallucination “yes” when
        <select
          className={field}
          value={settings.verdict.on}
          onChange={(e) =>
            setSettings({
              ...settings,
              verdict: { ...settings.verdict, on: e.target.value as Settings["verdict"]["on"] },
            })
          }
        >
          <option value="max_category">I or some category aggregate ≥ threshold (0–10)</option>
          <option value="overall">overall &lt; threshold (0–100)</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Threshold
        <input
          className={field}
          type="number"
          step="0.5"
          value={settings.verdict.threshold}
          onChange={(e) =>
            setSettings({ ...settings, verdict: { ...settings.verdict, threshold: Number(e.target.value) } })
          }
        />
      </label>
      <div>
        <button className={buttonClass("secondary")} disabled={save.isPending}>
          Save defaults for new runs
        </button>
      </div>
      {save.isSuccess && <p className="text-emerald-700">Saved. New runs use these settings.</p>}
      {save.error && (
        <p role="alert" className="text-red-700">
          {save.error.message}
        </p>
      )}
    </form>
  );
}
