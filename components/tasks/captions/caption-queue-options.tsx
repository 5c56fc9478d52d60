"use client";

import type { QueueOptionsFormProps } from "../task-views";

/** A caption queue's narrowing on the new-queue form: one model's and/or one caption type's captions (the body's `captions`). */
export function CaptionQueueOptions({ task, choices, value, onChange }: QueueOptionsFormProps) {
  const { models = [], types = [] } = (choices ?? {}) as { models?: string[]; types?: string[] };
  const set = (key: "model" | "type", chosen: string) => {
    const { [key]: _dropped, ...rest } = value;
    onChange(chosen ? { ...rest, [key]: chosen } : rest);
  };
  return (
    <fieldset className="flex flex-col gap-2" data-testid="queue-captions">
      <legend className="font-medium">
        Reviewers judge each caption&apos;s{" "}
        {task.id === "caption_content" ? "key points (hit 1 / missed 0)" : "style score (0–4)"}
      </legend>
      <label className="flex items-center gap-2">
        Model
        <select
          aria-label="Caption model"
          value={String(value.model ?? "")}
          onChange={(e) => set("model", e.target.value)}
          className="rounded-md border border-slate-300 px-2 py-1"
        >
          <option value="">every model</option>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2">
        Caption type
        <select
          aria-label="Caption type"
          value={String(value.type ?? "")}
          onChange={(e) => set("type", e.target.value)}
          className="rounded-md border border-slate-300 px-2 py-1"
        >
          <option value="">every type</option>
          {types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
