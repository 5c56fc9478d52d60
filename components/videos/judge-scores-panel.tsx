"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, apiFetch } from "@/components/import/api-client";

interface ScoreCell {
  id: string;
  category: string;
  value: number;
}
interface StepRow {
  id: string;
  stepId: string;
  scopeIndex: number;
  status: string;
  error: string | null;
  output: unknown;
  scores: ScoreCell[];
}
interface ScoresResponse {
  run: { id: string; simulated: boolean; createdAt: string } | null;
  summary: { S: number | null; D: number | null; I: number | null; overall: number | null; hallucination: boolean | null; complete: boolean } | null;
  steps: StepRow[];
}
interface Judgment {
  scoreId: string | null;
  reviewer: { id: string };
  value: number;
  note: string | null;
  version: number;
}

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? "—" : v.toFixed(1));
const STATIC = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10"];
const DYNAMIC = ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"];

/**
 * The judge's scores for a video (latest run) as a key frame / cluster × category heat map. Reviewers
 * click a cell to give their own value; the judge's value stays, and a stale edit is refused.
 */
export function JudgeScoresPanel({ videoId, currentUserId, canReview }: { videoId: string; currentUserId: string; canReview: boolean }) {
  const scores = useQuery({ queryKey: ["scores", videoId], queryFn: () => apiFetch<ScoresResponse>(`/api/v1/videos/${videoId}/scores`) });
  const reviews = useQuery({ queryKey: ["reviews", videoId], queryFn: () => apiFetch<{ judgments: Judgment[] }>(`/api/v1/videos/${videoId}/reviews`) });
  const [editing, setEditing] = useState<ScoreCell | null>(null);

  if (scores.isPending) return <p className="text-sm text-slate-500">Loading judge scores…</p>;
  if (scores.error) return <p role="alert" className="text-sm text-red-700">{scores.error.message}</p>;
  const data = scores.data;
  if (!data.run) return <p className="text-sm text-slate-500">No judge run has scored this video yet.</p>;
  const mine = new Map((reviews.data?.judgments ?? []).filter((j) => j.reviewer.id === currentUserId && j.scoreId).map((j) => [j.scoreId!, j]));
  const others = (scoreId: string) => (reviews.data?.judgments ?? []).filter((j) => j.scoreId === scoreId && j.reviewer.id !== currentUserId);
  const rowsOf = (stepId: string) => data.steps.filter((s) => s.stepId === stepId).sort((a, b) => a.scopeIndex - b.scopeIndex);
  const summary = data.summary;

  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="judge-scores">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-medium">Judge</span>
        {data.run.simulated && <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">simulated judgments</span>}
        {summary && (
          <span data-testid="judge-summary">
            I {fmt(summary.I)} · S {fmt(summary.S)} · D {fmt(summary.D)} · overall {fmt(summary.overall)} · hallucination{" "}
            {summary.hallucination === null ? "—" : summary.hallucination ? "yes" : "no"}
            {!summary.complete && <span className="text-amber-700"> (incomplete)</span>}
          </span>
        )}
      </div>
      {[
        { title: "Static (per key frame)", stepId: "static_hallucination", categories: STATIC, label: "key frame" },
        { title: "Dynamic (per cluster)", stepId: "dynamic_hallucination", categories: DYNAMIC, label: "cluster" },
      ].map(({ title, stepId, categories, label }) => (
        <div key={stepId} className="overflow-x-auto">
          <p className="mb-1 text-xs text-slate-500">{title}</p>
          <table className="text-xs">
            <thead>
              <tr>
                <th />
                {categories.map((c) => (
                  <th key={c} className="px-1 font-mono">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rowsOf(stepId).map((row) => (
                <tr key={row.id}>
                  <td className="pr-2 text-slate-500">
                    {label} {row.scopeIndex + 1}
                  </td>
                  {categories.map((category) => {
                    const cell = row.scores.find((s) => s.category === category);
                    if (!cell) return <td key={category} className="px-1 text-center text-slate-400" title={row.error ?? row.status}>{row.status === "done" ? "·" : "✕"}</td>;
                    const own = mine.get(cell.id);
                    return (
                      <td key={category} className="p-0.5">
                        <button
                          type="button"
                          disabled={!canReview}
                          onClick={() => setEditing(cell)}
                          className="h-7 w-9 rounded font-mono"
                          style={{ background: `rgba(220, 38, 38, ${cell.value / 12})` }}
                          title={`judge ${cell.value}${own ? `, you ${own.value}` : ""}${others(cell.id).length ? `, ${others(cell.id).length} other reviewer(s)` : ""}`}
                          data-testid="score-cell"
                        >
                          {own ? <span className="font-semibold text-indigo-900">{own.value}</span> : cell.value}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      {editing && <ReviewEditor key={editing.id} cell={editing} own={mine.get(editing.id) ?? null} videoId={videoId} onClose={() => setEditing(null)} />}
    </div>
  );
}

function ReviewEditor({ cell, own, videoId, onClose }: { cell: ScoreCell; own: Judgment | null; videoId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(String(own?.value ?? cell.value));
  const [note, setNote] = useState(own?.note ?? "");
  const save = useMutation({
    mutationFn: () =>
      apiFetch(`/api/v1/scores/${cell.id}/review`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ value: Number(value), note: note || null, ...(own ? { expectedVersion: own.version } : {}) }),
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["reviews", videoId] });
      onClose();
    },
  });
  const conflict = save.error instanceof ApiError && save.error.status === 409;
  return (
    <form
      className="flex flex-wrap items-end gap-2 rounded-md border border-indigo-200 bg-indigo-50 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
      data-testid="review-editor"
    >
      <span className="text-xs">
        {cell.category}: judge says <b>{cell.value}</b>. Your value (0–10):
      </span>
      <input className="w-16 rounded border border-slate-300 px-2 py-1" type="number" min={0} max={10} step={0.5} value={value} onChange={(e) => setValue(e.target.value)} autoFocus aria-label="Your value" />
      <input className="w-64 rounded border border-slate-300 px-2 py-1" placeholder="note (optional)" value={note} onChange={(e) => setNote(e.target.value)} aria-label="Note" />
      <button className="rounded bg-indigo-600 px-3 py-1 text-white" disabled={save.isPending}>
        Save
      </button>
      <button type="button" className="rounded border border-slate-300 px-3 py-1" onClick={onClose}>
        Close
      </button>
      {save.error && (
        <p role="alert" className="w-full text-xs text-red-700" data-testid="review-error">
          {save.error.message}
          {conflict && " (Your other tab or session saved first: reload to see it.)"}
        </p>
      )}
    </form>
  );
}
