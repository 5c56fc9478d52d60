"use client";

import type { OutputsViewProps } from "../task-views";

interface Answer {
  text?: string;
  refusal?: string | null;
  notAsked?: string;
}

/** The video page's outputs of a VBench-2.0 run: each step's answer as the model gave it, or why VBench would not ask it. */
export function Vbench2Answers({ steps }: OutputsViewProps) {
  const sorted = [...steps].sort((a, b) => a.stepId.localeCompare(b.stepId, "en", { numeric: true }));
  return (
    <ul className="flex flex-col gap-1 text-sm" data-testid="vbench2-answers">
      {sorted.map((step) => {
        const output = (step.output ?? {}) as Answer;
        return (
          <li key={step.id} className="flex flex-wrap gap-2">
            <code className="text-xs text-slate-500">{step.stepId}</code>
            {step.status !== "done" ? (
              <span className="text-amber-800">
                {step.status}
                {step.error ? `: ${step.error}` : ""}
              </span>
            ) : output.notAsked ? (
              <span className="text-slate-500">{output.notAsked}</span>
            ) : (
              <span className="whitespace-pre-wrap">{output.text || output.refusal || "(empty answer)"}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The run header's settings line: the dimensions asked, the text LLM and the prompt variant. */
export function Vbench2Settings({ settings }: { settings: unknown }) {
  const s = (settings ?? {}) as { dimensions?: unknown; textEndpointId?: unknown; variant?: unknown };
  const dimensions = Array.isArray(s.dimensions) ? s.dimensions.filter((d): d is string => typeof d === "string") : [];
  return (
    <span>
      {dimensions.length
        ? dimensions.map((d) => d.replace(/_/g, " ")).join(", ")
        : "every judged dimension of each video"}
      {" · "}
      {typeof s.textEndpointId === "string" ? "a text LLM of its own" : "the VLM as the text LLM"}
      {" · "}
      {s.variant === "corrected" ? "corrected prompts" : "VBench's prompts as sent"}
    </span>
  );
}
