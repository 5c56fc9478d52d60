"use client";

import { DYNAMIC_CATEGORY_IDS, DYNAMIC_HALLUCINATION_CATEGORIES, INCONSISTENCY_CATEGORY, STATIC_CATEGORY_IDS, STATIC_HALLUCINATION_CATEGORIES } from "@/lib/judge/hallucination-schemas";
import { JudgmentForm, JudgmentHistory, LabelledValues, type Judgment } from "./judgment-item";

export interface ScoreCell {
  id: string;
  category: string;
  value: number;
}
export interface StepRow {
  id: string;
  stepId: string;
  scopeIndex: number;
  status: string;
  error: string | null;
  output: unknown;
  templateId: string;
  templateHash: string | null;
  attempts: number;
  scores: ScoreCell[];
}
export interface ScoresResponse {
  run: { id: string; pipeline: string; status: string; simulated: boolean; createdAt: string; settings: unknown; endpointSnapshot: unknown } | null;
  frameSetId?: string;
  status?: string;
  summary: { S: number | null; D: number | null; I: number | null; overall: number | null; hallucination: boolean | null; complete: boolean } | null;
  /** The caller holds an unsubmitted item of a blind queue for this video: judge values are withheld. */
  blind?: boolean;
  steps: StepRow[];
}
export interface CellFocus {
  stepId: string;
  scopeIndex: number;
  /** The score the reviewer picked, if a cell (not a row label) was clicked. */
  scoreId: string | null;
}

const CATEGORY_NAMES: Record<string, string> = {
  ...Object.fromEntries([...STATIC_HALLUCINATION_CATEGORIES, ...DYNAMIC_HALLUCINATION_CATEGORIES].map((c) => [c.id, c.name])),
  [INCONSISTENCY_CATEGORY]: "Prompt inconsistency (I)",
};

/**
 * The judge's scores as a key frame / cluster × category heat map. Clicking a cell focuses its
 * frames in the player and opens the score's judgments: the judge's value, yours, the reviewers'
 * consensus and the history; reviewers also get the editor.
 */
export function JudgeScoresPanel({
  data,
  judgments,
  videoId,
  currentUserId,
  canReview,
  focus,
  onFocus,
}: {
  data: ScoresResponse;
  judgments: Judgment[];
  videoId: string;
  currentUserId: string;
  canReview: boolean;
  focus: CellFocus | null;
  onFocus: (focus: CellFocus | null) => void;
}) {
  const scoreJudgments = (scoreId: string) => judgments.filter((j) => j.scoreId === scoreId);
  const rowsOf = (stepId: string) => data.steps.filter((s) => s.stepId === stepId).sort((a, b) => a.scopeIndex - b.scopeIndex);
  const allCells = data.steps.flatMap((s) => s.scores.map((score) => ({ score, step: s })));
  const picked = focus?.scoreId ? allCells.find((c) => c.score.id === focus.scoreId) ?? null : null;

  const cellButton = (row: StepRow, cell: ScoreCell) => {
    const mine = scoreJudgments(cell.id);
    const own = mine.find((j) => j.reviewer.id === currentUserId);
    const selected = focus?.scoreId === cell.id;
    return (
      <button
        type="button"
        onClick={() => onFocus(selected ? null : { stepId: row.stepId, scopeIndex: row.scopeIndex, scoreId: cell.id })}
        className={`h-7 w-9 rounded font-mono ${selected ? "ring-2 ring-amber-500" : ""} ${own ? "underline decoration-indigo-700 decoration-2" : ""}`}
        style={{ background: `rgba(220, 38, 38, ${cell.value / 12})` }}
        title={`${CATEGORY_NAMES[cell.category] ?? cell.category}: judge ${cell.value}${own ? `, you ${own.value}` : ""}${mine.length > (own ? 1 : 0) ? `, ${mine.length - (own ? 1 : 0)} other reviewer(s)` : ""}`}
        aria-pressed={selected}
        data-testid="score-cell"
        data-step={row.stepId}
        data-scope={row.scopeIndex}
        data-category={cell.category}
      >
        {own ? <span className="font-semibold text-indigo-900">{own.value}</span> : cell.value}
      </button>
    );
  };

  const inconsistency = rowsOf("inconsistency")[0];
  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="judge-scores">
      <p className="text-xs text-slate-500">
        Click a cell: the player jumps to its key frame and the frames the judge saw are highlighted{canReview ? "; give your own value below the map" : ""}. Underlined values are yours.
      </p>
      {[
        { title: "Static (per key frame)", stepId: "static_hallucination", categories: STATIC_CATEGORY_IDS, label: "key frame" },
        { title: "Dynamic (per cluster)", stepId: "dynamic_hallucination", categories: DYNAMIC_CATEGORY_IDS, label: "cluster" },
      ].map(({ title, stepId, categories, label }) => (
        <div key={stepId} className="overflow-x-auto" data-testid={`heat-map-${stepId}`}>
          <p className="mb-1 text-xs text-slate-500">{title}</p>
          <table className="text-xs">
            <thead>
              <tr>
                <th />
                {categories.map((c) => (
                  <th key={c} className="px-1 font-mono" title={CATEGORY_NAMES[c]}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rowsOf(stepId).map((row) => (
                <tr key={row.id} className={focus && focus.stepId === stepId && focus.scopeIndex === row.scopeIndex ? "bg-amber-50" : ""}>
                  <td className="pr-2">
                    <button type="button" className="text-slate-600 underline decoration-dotted" onClick={() => onFocus({ stepId, scopeIndex: row.scopeIndex, scoreId: null })}>
                      {label} {row.scopeIndex + 1}
                    </button>
                  </td>
                  {categories.map((category) => {
                    const cell = row.scores.find((s) => s.category === category);
                    if (!cell)
                      return (
                        <td key={category} className="px-1 text-center text-slate-400" title={row.error ?? row.status}>
                          {row.status === "done" ? "·" : "✕"}
                        </td>
                      );
                    return (
                      <td key={category} className="p-0.5">
                        {cellButton(row, cell)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      {inconsistency && (
        <div className="flex items-center gap-2 text-xs" data-testid="heat-map-inconsistency">
          <span className="text-slate-500">Prompt inconsistency (whole video, all key frames):</span>
          {inconsistency.scores[0] ? cellButton(inconsistency, inconsistency.scores[0]) : <span title={inconsistency.error ?? inconsistency.status}>✕ {inconsistency.status}</span>}
        </div>
      )}
      {picked && (
        <div className="flex flex-col gap-2 rounded-md border border-slate-200 p-3" data-testid="score-detail">
          <p className="text-xs">
            <b>{CATEGORY_NAMES[picked.score.category] ?? picked.score.category}</b> ({picked.score.category}),{" "}
            {picked.step.stepId === "inconsistency" ? "whole video" : `${picked.step.stepId.startsWith("static") ? "key frame" : "cluster"} ${picked.step.scopeIndex + 1}`}
          </p>
          <LabelledValues targetType="score" judgeValue={picked.score.value} judgments={scoreJudgments(picked.score.id)} currentUserId={currentUserId} />
          {canReview && (
            <JudgmentForm
              key={picked.score.id}
              targetType="score"
              saveUrl={`/api/v1/scores/${picked.score.id}/review`}
              own={scoreJudgments(picked.score.id).find((j) => j.reviewer.id === currentUserId) ?? null}
              judgeValue={picked.score.value}
              videoId={videoId}
              onCancel={() => onFocus({ stepId: picked.step.stepId, scopeIndex: picked.step.scopeIndex, scoreId: null })}
            />
          )}
          <JudgmentHistory targetType="score" judgments={scoreJudgments(picked.score.id)} />
        </div>
      )}
    </div>
  );
}
