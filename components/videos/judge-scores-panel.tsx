"use client";

import { useId, useState } from "react";
import { textOnTint } from "@/components/class-names";
import { TaskCode } from "@/components/tasks/target-legend";
import type { TargetDeclaration, TaskDeclaration } from "@/lib/task-modules/task-declaration";
import {
  heatCellShown,
  meaningOf,
  scopeLabel,
  targetSections,
  type HeatMapView,
  type SubjectSummary,
} from "@/lib/task-modules/task-display";
import { JudgmentForm, JudgmentHistory, LabelledValues, type Judgment } from "./judgment-item";

/** The heat map's tints: red for a score (stronger for worse), amber for the difference between you and the judge. */
const SCORE_RGB = [220, 38, 38] as const;
const DIFFERENCE_RGB = [217, 119, 6] as const;

export interface ScoreCell {
  id: string;
  category: string;
  value: number;
  /** The logprob-weighted score beside the argmax `value` (G-Eval), when the endpoint returned logprobs. */
  expected?: number | null;
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
  /** `ensemble`: set for an ensemble run (lib/ensembles), whose members' values the video page shows beside the combined ones. */
  run: {
    id: string;
    pipeline: string;
    status: string;
    simulated: boolean;
    createdAt: string;
    settings: unknown;
    endpointSnapshot: unknown;
    ensemble?: unknown;
  } | null;
  frameSetId?: string;
  status?: string;
  /** The pipeline's per-video summary; read through the run's task (summaryMetricValues). */
  summary: SubjectSummary | null;
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

/** A heat map's block: one value of the task's first grouping, the steps that scored its targets, their rows. */
interface HeatSection {
  id: string;
  label: string;
  targets: TargetDeclaration[];
  /** Where the section's values sit (its targets share it; hallucination: key frame, cluster, video). */
  scope: TargetDeclaration["scope"];
  stepIds: string[];
  rows: StepRow[];
}

/**
 * The task's targets by its first grouping, each with the steps that scored them (failed ones of
 * the same steps too, shown as ✕): the heat map learns its rows and columns from the declaration.
 */
function heatSections(task: TaskDeclaration, steps: StepRow[]): HeatSection[] {
  return targetSections(task).flatMap((section) => {
    const codes = new Set(section.targets.map((t) => t.id));
    const stepIds = [
      ...new Set(steps.filter((s) => s.scores.some((score) => codes.has(score.category))).map((s) => s.stepId)),
    ].sort();
    const rows = steps
      .filter((s) => stepIds.includes(s.stepId))
      .sort((a, b) => a.stepId.localeCompare(b.stepId) || a.scopeIndex - b.scopeIndex);
    return rows.length ? [{ ...section, scope: section.targets[0]!.scope, stepIds, rows }] : [];
  });
}

/**
 * The judge's scores as a heat map of key frame / cluster × category, laid out from the run's task
 * declaration. Every code shows its name and definition on hover or focus. Clicking a cell focuses its
 * frames in the player and opens the score's judgments: the judge's value, yours, the reviewers'
 * consensus and the history; reviewers also get the editor.
 */
export function JudgeScoresPanel({
  data,
  task,
  judgments,
  videoId,
  currentUserId,
  canReview,
  focus,
  onFocus,
}: {
  data: ScoresResponse;
  /** The run's task; null for a pipeline no task declares (its scores are then not laid out). */
  task: TaskDeclaration | null;
  judgments: Judgment[];
  videoId: string;
  currentUserId: string;
  canReview: boolean;
  focus: CellFocus | null;
  onFocus: (focus: CellFocus | null) => void;
}) {
  const definitionsId = useId();
  const [view, setView] = useState<HeatMapView>("judge");
  const targetOf = (code: string) => task?.targets.find((t) => t.id === code) ?? null;
  const allCells = data.steps.flatMap((s) => s.scores.map((score) => ({ score, step: s })));
  const picked = focus?.scoreId ? (allCells.find((c) => c.score.id === focus.scoreId) ?? null) : null;
  const pickedTarget = picked ? targetOf(picked.score.category) : null;
  const sections = task ? heatSections(task, data.steps) : [];
  const nameOf = (code: string) => {
    const meaning = meaningOf(task, code);
    return meaning && meaning.label !== code ? `${code} · ${meaning.label}` : code;
  };
  const heat: HeatMapContext = { task, judgments, currentUserId, view, focus, onFocus, definitionsId, nameOf };

  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="judge-scores">
      <p className="text-xs text-slate-500">
        Click a cell: the player jumps to its key frame and the frames the judge saw are highlighted
        {canReview ? "; give your own value below the map" : ""}. Underlined cells have a value of yours. Hover or focus
        a code for its name and definition.
      </p>
      {sections.length > 0 && <HeatMapViewSwitch view={view} onChange={setView} />}
      {/* What each cell's aria-describedby reads: the code's name and definition. */}
      <div hidden>
        {task?.targets.map((t) => (
          <span key={t.id} id={`${definitionsId}-${t.id}`}>
            {t.id} · {t.label}: {t.definition}
          </span>
        ))}
      </div>
      {sections.map((section) =>
        section.scope === "video" ? (
          <WholeVideoSection key={section.id} heat={heat} section={section} />
        ) : (
          <ScopeHeatTable key={section.id} heat={heat} section={section} />
        ),
      )}
      {picked && (
        <ScoreDetail heat={heat} picked={picked} target={pickedTarget} videoId={videoId} canReview={canReview} />
      )}
    </div>
  );
}

const HEAT_MAP_VIEWS: { view: HeatMapView; label: string; hint: string }[] = [
  { view: "judge", label: "Judge", hint: "the judge's values, tinted toward the bad end of the scale" },
  { view: "mine", label: "Mine", hint: "your own values, tinted the same way; blank where you gave none" },
  {
    view: "difference",
    label: "Difference",
    hint: "yours minus the judge's, tinted by its size; blank where you gave none",
  },
];

/** Which values the heat map's cells show and are tinted by: one source for both. */
function HeatMapViewSwitch({ view, onChange }: { view: HeatMapView; onChange: (view: HeatMapView) => void }) {
  return (
    <div
      role="radiogroup"
      aria-label="Heat map shows"
      className="flex flex-wrap items-center gap-1 text-xs"
      data-testid="heat-map-view"
    >
      <span className="mr-1 text-slate-500">Cells show:</span>
      {HEAT_MAP_VIEWS.map((option) => (
        <button
          key={option.view}
          type="button"
          role="radio"
          aria-checked={view === option.view}
          title={option.hint}
          onClick={() => onChange(option.view)}
          className={`rounded border px-2 py-0.5 ${view === option.view ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300 bg-white text-slate-700"}`}
          data-testid={`heat-map-view-${option.view}`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** What every part of the heat map reads: the task, the judgments, the view, the focus and the codes' names. */
interface HeatMapContext {
  task: TaskDeclaration | null;
  judgments: Judgment[];
  currentUserId: string;
  view: HeatMapView;
  focus: CellFocus | null;
  onFocus: (focus: CellFocus | null) => void;
  /** The prefix of the hidden definitions' ids each cell's aria-describedby names. */
  definitionsId: string;
  nameOf: (code: string) => string;
}

/** One score's cell: the view's value and tint; clicking it focuses its frames and opens its judgments. */
function ScoreCellButton({ heat, row, cell }: { heat: HeatMapContext; row: StepRow; cell: ScoreCell }) {
  const mine = heat.judgments.filter((j) => j.scoreId === cell.id);
  const own = mine.find((j) => j.reviewer.id === heat.currentUserId);
  const selected = heat.focus?.scoreId === cell.id;
  const target = heat.task?.targets.find((t) => t.id === cell.category) ?? null;
  // The number and the tint come from the same value: the view's (judge, yours, or yours minus the judge's).
  const shown = target
    ? heatCellShown(target, heat.view, cell.value, own?.value ?? null)
    : { text: heat.view === "judge" ? String(cell.value) : "", hue: "score" as const, alpha: 0, positive: false };
  const rgb = shown.hue === "difference" ? DIFFERENCE_RGB : SCORE_RGB;
  const tint = `rgba(${rgb.join(", ")}, ${shown.alpha})`;
  const button = (
    <button
      type="button"
      onClick={() =>
        heat.onFocus(selected ? null : { stepId: row.stepId, scopeIndex: row.scopeIndex, scoreId: cell.id })
      }
      className={`h-7 w-9 rounded font-mono ${selected ? "ring-2 ring-amber-500" : ""} ${own ? "underline decoration-indigo-700 decoration-2" : ""} ${shown.alpha > 0 ? textOnTint(rgb, shown.alpha) : ""}`}
      style={{ background: tint }}
      title={`${heat.nameOf(cell.category)}: judge ${cell.value}${own ? `, you ${own.value}` : ""}${mine.length > (own ? 1 : 0) ? `, ${mine.length - (own ? 1 : 0)} other reviewer(s)` : ""}`}
      aria-describedby={target ? `${heat.definitionsId}-${cell.category}` : undefined}
      aria-pressed={selected}
      data-testid="score-cell"
      data-step={row.stepId}
      data-scope={row.scopeIndex}
      data-category={cell.category}
      data-positive={shown.positive}
      data-alpha={shown.alpha.toFixed(3)}
    >
      {shown.text}
    </button>
  );
  if (cell.expected === null || cell.expected === undefined) return button;
  return (
    <span className="inline-flex items-center gap-0.5">
      {button}
      <span
        className="text-[10px] text-slate-500"
        title={`${heat.nameOf(cell.category)}: expected score ${cell.expected.toFixed(3)}, weighted by the answer's token probabilities (the judge answered ${cell.value})`}
        data-testid="expected-score"
      >
        ≈{cell.expected.toFixed(2)}
      </span>
    </span>
  );
}

/** A section scored once for the whole video: its targets in a line. */
function WholeVideoSection({ heat, section }: { heat: HeatMapContext; section: HeatSection }) {
  return (
    <div
      className="flex flex-wrap items-center gap-2 text-xs"
      data-testid={`heat-map-${section.stepIds[0] ?? section.id}`}
    >
      <span className="text-slate-500">{section.label} (whole video):</span>
      {section.targets.map((target) => {
        const row = section.rows.find((r) => r.scores.some((s) => s.category === target.id)) ?? section.rows[0]!;
        const cell = row.scores.find((s) => s.category === target.id);
        return (
          <span key={target.id} className="flex items-center gap-1">
            <TaskCode task={heat.task} code={target.id} />
            {cell ? (
              <ScoreCellButton heat={heat} row={row} cell={cell} />
            ) : (
              <span title={row.error ?? row.status}>✕ {row.status}</span>
            )}
          </span>
        );
      })}
    </div>
  );
}

/** A section scored per key frame or cluster: a row per scope, a column per target. */
function ScopeHeatTable({ heat, section }: { heat: HeatMapContext; section: HeatSection }) {
  return (
    <div className="max-w-full" data-testid={`heat-map-${section.stepIds[0] ?? section.id}`}>
      <p className="mb-1 text-xs text-slate-500">{section.label}</p>
      <table className="text-xs">
        <thead>
          <tr>
            <th />
            {section.targets.map((t) => (
              <th key={t.id} className="px-1 font-normal" data-testid="heat-map-column" data-code={t.id}>
                <TaskCode task={heat.task} code={t.id} showName={false} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {section.rows.map((row) => (
            <tr
              key={row.id}
              className={
                heat.focus && heat.focus.stepId === row.stepId && heat.focus.scopeIndex === row.scopeIndex
                  ? "bg-amber-50"
                  : ""
              }
            >
              <td className="pr-2">
                <button
                  type="button"
                  className="text-slate-600 underline decoration-dotted"
                  onClick={() => heat.onFocus({ stepId: row.stepId, scopeIndex: row.scopeIndex, scoreId: null })}
                >
                  {scopeLabel(section.scope, row.scopeIndex)}
                </button>
              </td>
              {section.targets.map((target) => {
                const cell = row.scores.find((s) => s.category === target.id);
                if (!cell)
                  return (
                    <td key={target.id} className="px-1 text-center text-slate-500" title={row.error ?? row.status}>
                      {row.status === "done" ? "·" : "✕"}
                    </td>
                  );
                return (
                  <td key={target.id} className="p-0.5">
                    {<ScoreCellButton heat={heat} row={row} cell={cell} />}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The picked score: its code and scope, definition, the values given, your editor and the history. */
function ScoreDetail({
  heat,
  picked,
  target,
  videoId,
  canReview,
}: {
  heat: HeatMapContext;
  picked: { score: ScoreCell; step: StepRow };
  target: TargetDeclaration | null;
  videoId: string;
  canReview: boolean;
}) {
  const judgments = heat.judgments.filter((j) => j.scoreId === picked.score.id);
  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-200 p-3" data-testid="score-detail">
      <p className="text-xs">
        <TaskCode task={heat.task} code={picked.score.category} />,{" "}
        {target
          ? scopeLabel(target.scope, picked.step.scopeIndex)
          : `${picked.step.stepId} ${picked.step.scopeIndex + 1}`}
      </p>
      {target && (
        <p className="text-xs text-slate-600" data-testid="score-definition">
          {target.definition}
        </p>
      )}
      <LabelledValues
        targetType="score"
        judgeValue={picked.score.value}
        judgments={judgments}
        currentUserId={heat.currentUserId}
      />
      {canReview && (
        <JudgmentForm
          key={picked.score.id}
          targetType="score"
          declared={target}
          saveUrl={`/api/v1/scores/${picked.score.id}/review`}
          own={judgments.find((j) => j.reviewer.id === heat.currentUserId) ?? null}
          judgeValue={picked.score.value}
          videoId={videoId}
          onCancel={() =>
            heat.onFocus({ stepId: picked.step.stepId, scopeIndex: picked.step.scopeIndex, scoreId: null })
          }
        />
      )}
      <JudgmentHistory targetType="score" judgments={judgments} />
    </div>
  );
}
