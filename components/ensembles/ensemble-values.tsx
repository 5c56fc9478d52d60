"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/api-client";
import { formatValue, type TaskDeclaration } from "@/lib/task-modules/task-declaration";

interface EnsembleValues {
  kind: "samples" | "panel";
  combine: string;
  blind: boolean;
  scores: {
    stepId: string;
    scopeIndex: number;
    category: string;
    value: number;
    n: number;
    sd: number;
    range: number;
    entropy: number | null;
    unstable: boolean;
    members: { memberIndex: number; runId: string; value: number; reason: string | null }[];
  }[];
}

/** On a video page, an ensemble run's combined scores with every sample's or judge's value and reason, and the unstable ones marked. */
export function EnsembleValuesPanel({
  runId,
  videoId,
  task,
}: {
  runId: string;
  videoId: string;
  task: TaskDeclaration | null;
}) {
  const values = useQuery({
    queryKey: ["ensemble-values", runId, videoId],
    queryFn: () =>
      apiFetch<{ ensemble: EnsembleValues | null }>(`/api/v1/runs/${runId}/videos/${videoId}/ensemble`).then(
        (b) => b.ensemble,
      ),
  });
  const data = values.data;
  if (!data || data.blind || data.scores.length === 0) return null;
  const noun = data.kind === "samples" ? "sample" : "judge";
  const show = (category: string, value: number) => {
    const target = task?.targets.find((t) => t.id === category);
    return target ? formatValue(target, value) : String(Math.round(value * 100) / 100);
  };
  return (
    <details
      className="rounded-md border border-violet-200 p-2 text-xs"
      data-testid="ensemble-values"
      open={data.scores.some((s) => s.unstable)}
    >
      <summary className="cursor-pointer font-medium">
        Each {noun}&apos;s value ({data.scores.filter((s) => s.unstable).length} unstable of {data.scores.length})
      </summary>
      <table className="mt-2 w-full text-left">
        <thead className="text-slate-500">
          <tr>
            <th>Target</th>
            <th>Combined</th>
            <th>SD / range</th>
            <th>Each {noun}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {data.scores.map((s) => (
            <tr
              key={`${s.stepId}#${s.scopeIndex}#${s.category}`}
              data-testid="ensemble-score"
              data-unstable={s.unstable}
            >
              <td className="py-1">
                {task?.targets.find((t) => t.id === s.category)?.label ?? s.category}
                {s.scopeIndex > 0 && <span className="text-slate-500"> #{s.scopeIndex + 1}</span>}
                {s.unstable && <span className="ml-1 rounded bg-amber-100 px-1 text-amber-800">unstable</span>}
              </td>
              <td className="font-medium">{show(s.category, s.value)}</td>
              <td>
                {s.sd.toFixed(2)} / {s.range}
                {s.entropy !== null && <span className="text-slate-500"> · H {s.entropy.toFixed(2)} bits</span>}
              </td>
              <td>
                <ul className="flex flex-col gap-0.5">
                  {s.members.map((m) => (
                    <li key={m.runId} title={m.reason ?? undefined}>
                      {noun} {m.memberIndex + 1}: <b>{show(s.category, m.value)}</b>
                      {m.reason && <span className="text-slate-600"> — {m.reason}</span>}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
