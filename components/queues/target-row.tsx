"use client";

/**
 * One target's row on the review screen: its label (a question's words, a task code, or the label), the reviewer's and
 * the judge's values, the values to click, its definition, the frames the judge looked at, and the note field; with the
 * helpers that read a target through its task's declaration.
 */
import type { RefObject } from "react";
import { TaskCode } from "@/components/tasks/target-legend";
import { ON_TINTED_ROW } from "@/components/class-names";
import { QuestionFrames, QuestionLabel } from "@/components/queues/target-question";
import type { Draft, ItemView, TargetView } from "@/components/queues/review-types";
import {
  disagrees,
  formatValue,
  targetIdOfCategory,
  type MetricDeclaration,
  type TargetDeclaration,
  type TaskDeclaration,
} from "@/lib/task-modules/task-declaration";
import { scopeLabel } from "@/lib/task-modules/task-display";

/**
 * A score's category target (an indexed category, `material:q2`, is its declared target's), or the per-video metric a
 * verdict/overall target judges; null when the task declares neither.
 */
export function declarationOf(
  task: TaskDeclaration | null,
  target: Pick<TargetView, "key" | "category">,
): TargetDeclaration | MetricDeclaration | null {
  if (!task) return null;
  if (target.category === null) return task.metrics.find((m) => m.id === target.key) ?? null;
  const id = targetIdOfCategory(task, target.category);
  return task.targets.find((t) => t.id === id) ?? null;
}

/** A value on the target's declared scale: a named value in words, a number as every score reads (lib/format/numbers). */
const show = (declared: TargetDeclaration | MetricDeclaration | null, value: number | null | undefined) =>
  formatValue(declared ?? { scale: { kind: "numeric", min: -Infinity, max: Infinity, step: null } }, value);

/** The values a mouse picks from for a target: a categorical scale's named values, or each whole number of a short numeric scale; null: a number field. */
function scoreChoices(
  declared: TargetDeclaration | MetricDeclaration | null,
  target: TargetView,
): { value: number; label: string }[] | null {
  if (declared?.scale.kind === "categorical")
    return declared.scale.values.map((v) => ({ value: v.value, label: v.label }));
  if (!Number.isInteger(target.min) || !Number.isInteger(target.max) || target.max - target.min > 10) return null;
  return Array.from({ length: target.max - target.min + 1 }, (_, i) => ({
    value: target.min + i,
    label: String(target.min + i),
  }));
}

/** Whether the reviewer's value counts as agreeing with the judge's: closer than the target's declared disagreement gap. */
export function agreesWithJudge(
  declared: TargetDeclaration | MetricDeclaration | null,
  target: TargetView,
  mine: number,
  judge: number,
): boolean {
  return !disagrees(
    declared ?? { scale: { kind: "numeric", min: target.min, max: target.max, step: null } },
    mine,
    judge,
  );
}

export interface TargetRowProps {
  task: TaskDeclaration | null;
  target: TargetView;
  index: number;
  draft: Draft;
  isFocused: boolean;
  /** Submitted and shown with the judge's values: the values cannot be changed, only looked at. */
  revealing: boolean;
  submitted: boolean;
  frames: ItemView["video"]["frames"];
  /** The note fields by target key, so `m` can focus the focused target's. */
  noteRefs: RefObject<Map<string, HTMLTextAreaElement>>;
  onPick: (index: number, value: number) => void;
  onType: (index: number, value: number) => void;
  onNote: (key: string, note: string) => void;
  onFocus: (index: number) => void;
}

export function TargetRow(props: TargetRowProps) {
  const { task, target, index, draft, isFocused, revealing, submitted } = props;
  const declared = declarationOf(task, target);
  return (
    <li
      data-testid="target"
      data-target-index={index}
      data-focused={isFocused}
      className={`rounded-md border p-2 text-sm ${isFocused ? `border-indigo-500 bg-indigo-50 ring-1 ring-indigo-400 ${ON_TINTED_ROW}` : "border-slate-200 bg-white"}`}
    >
      <div className="flex items-center gap-3">
        <span className="min-w-0 flex-1" data-testid="target-label">
          <TargetLabel task={task} target={target} declared={declared} />
          {target.required && draft.value === null && <span className="ml-1 text-xs text-amber-700">needed</span>}
        </span>
        <span className="text-xs text-slate-500">you</span>
        <span className="w-10 text-right font-mono text-base font-semibold text-indigo-900" data-testid="my-value">
          {show(declared, draft.value)}
        </span>
        {draft.accepted && (
          <span
            className="rounded bg-amber-100 px-1 text-xs text-amber-900"
            data-testid="accepted-mark"
            title="The judge's value, taken with a / A"
          >
            accepted
          </span>
        )}
        <span className="text-xs text-slate-500">judge</span>
        {"judge" in target ? (
          <span className="w-10 text-right font-mono text-slate-700" data-testid="judge-value">
            {show(declared, target.judge)}
          </span>
        ) : (
          <span
            className="w-10 text-right text-xs text-slate-500"
            data-testid="judge-hidden"
            title="Blind queue: shown once you submit"
          >
            hidden
          </span>
        )}
        {submitted && draft.value !== null && target.judge !== null && target.judge !== undefined && (
          <AgreementMark agrees={agreesWithJudge(declared, target, draft.value, target.judge)} />
        )}
      </div>
      <ScoreControls
        choices={scoreChoices(declared, target)}
        target={target}
        label={target.label}
        value={draft.value}
        disabled={revealing}
        onPick={(value) => props.onPick(index, value)}
        onType={(value) => props.onType(index, value)}
      />
      {declared && (
        <p
          className={`mt-0.5 text-xs text-slate-500 ${isFocused ? "" : "truncate"}`}
          title={declared.definition}
          data-testid="target-definition"
        >
          {declared.definition}
        </p>
      )}
      {isFocused && <TargetFrames target={target} frames={props.frames} />}
      {(isFocused || draft.note) && <NoteField {...props} />}
    </li>
  );
}

/** A question shows its words; an indexed category (a caption's key point 3) keeps its label, which carries its text. */
function TargetLabel({
  task,
  target,
  declared,
}: {
  task: TaskDeclaration | null;
  target: TargetView;
  declared: TargetDeclaration | MetricDeclaration | null;
}) {
  if (target.question) return <QuestionLabel label={target.label} question={target.question} />;
  if (target.category !== null && declared && "scope" in declared && declared.id === target.category)
    return (
      <>
        <TaskCode task={task} code={target.category} />
        {target.scopeIndex !== null && (
          <span className="text-slate-600"> · {scopeLabel(declared.scope, target.scopeIndex)}</span>
        )}
      </>
    );
  return <>{target.label}</>;
}

/** The focused target's frames: a question's own frames, or the frames the judge looked at for the score. */
function TargetFrames({ target, frames }: { target: TargetView; frames: ItemView["video"]["frames"] }) {
  if (target.question)
    return <QuestionFrames frameIndexes={target.frameIndexes} frames={frames} note={target.question.framesNote} />;
  if (target.frameIndexes.length === 0) return null;
  const frameByIndex = new Map(frames.map((f) => [f.index, f]));
  return (
    <div className="mt-1 flex gap-1" data-testid="target-frames">
      {target.frameIndexes.map((i) => {
        const frame = frameByIndex.get(i);
        return frame ? (
          // eslint-disable-next-line @next/next/no-img-element -- a frame from the media route, shown as stored
          <img
            key={frame.id}
            src={frame.url}
            alt={`frame at ${frame.timestampS.toFixed(2)} s`}
            className="h-14 rounded"
          />
        ) : null;
      })}
    </div>
  );
}

function NoteField({ target, index, draft, isFocused, noteRefs, onNote, onFocus }: TargetRowProps) {
  return (
    <label className="mt-1 flex flex-col gap-0.5 text-xs text-slate-500">
      <span>Note{isFocused ? " (m to write, Esc to leave)" : ""}</span>
      <textarea
        ref={(el) => {
          if (el) noteRefs.current.set(target.key, el);
          else noteRefs.current.delete(target.key);
        }}
        rows={isFocused ? 2 : 1}
        value={draft.note}
        onChange={(e) => onNote(target.key, e.target.value)}
        onFocus={() => onFocus(index)}
        className="rounded border border-slate-300 px-2 py-1 text-sm text-slate-800"
        data-testid="note-input"
        maxLength={5000}
      />
    </label>
  );
}

/** Whether the reviewer's value agrees with the judge's, once the judge's values are shown on a submitted item. */
function AgreementMark({ agrees }: { agrees: boolean }) {
  return (
    <span
      className={`rounded px-1 text-xs font-medium ${agrees ? "bg-emerald-100 text-emerald-900" : "bg-rose-100 text-rose-900"}`}
      data-testid="agreement"
      data-agrees={agrees}
      title={
        agrees
          ? "You and the judge agree (closer than the target's disagreement gap)"
          : "You and the judge disagree (at least the target's disagreement gap apart)"
      }
    >
      {agrees ? "agree" : "differ"}
    </span>
  );
}
/**
 * A target's values to click (a categorical scale's names, or each number of a short scale), or a number field for a
 * wide scale. The buttons keep the keyboard's focus where it was (a mouse-down does not move it), so keys go on working.
 */
function ScoreControls({
  choices,
  target,
  label,
  value,
  disabled,
  onPick,
  onType,
}: {
  choices: { value: number; label: string }[] | null;
  target: TargetView;
  label: string;
  value: number | null;
  disabled: boolean;
  onPick: (value: number) => void;
  onType: (value: number) => void;
}) {
  if (!choices)
    return (
      <label className="mt-1 flex items-center gap-2 text-xs text-slate-500">
        value ({target.min}–{target.max})
        <input
          type="number"
          min={target.min}
          max={target.max}
          value={value ?? ""}
          disabled={disabled}
          onChange={(event) => {
            const typedValue = event.target.valueAsNumber;
            if (Number.isFinite(typedValue) && typedValue >= target.min && typedValue <= target.max) onType(typedValue);
          }}
          className="w-20 rounded border border-slate-300 px-1 py-0.5 text-sm text-slate-800"
          data-testid="score-input"
        />
      </label>
    );
  return (
    <div
      className="mt-1 flex flex-wrap gap-1"
      role="group"
      aria-label={`${label}: your value`}
      data-testid="score-controls"
    >
      {choices.map((choice) => {
        const chosen = value === choice.value;
        return (
          <button
            key={choice.value}
            type="button"
            disabled={disabled}
            aria-pressed={chosen}
            aria-label={`${label}: ${choice.label}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onPick(choice.value)}
            className={`min-w-7 rounded border px-1.5 py-0.5 font-mono text-xs disabled:opacity-60 ${chosen ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:border-indigo-400"}`}
            data-testid="score-button"
            data-value={choice.value}
          >
            {choice.label}
          </button>
        );
      })}
    </div>
  );
}
