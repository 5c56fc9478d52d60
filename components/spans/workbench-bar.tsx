"use client";

/**
 * The line between the player and the timeline: the label new spans get (`t` cycles it) and the in and out points;
 * under the timeline, the selected span with its save state, the last message and a conflict's two ways out (save the
 * edit over the current version, or take the current one).
 */
import type { Dispatch } from "react";
import type { SpanLabel } from "@/lib/spans/span-labels";
import type { SpanRecord } from "@/lib/spans/span-types";
import type { OwnSpan, TimelineAction, TimelineState } from "./span-edits";

const STATUS_WORDS: Record<OwnSpan["status"], string> = {
  saved: "saved",
  dirty: "waiting to save",
  saving: "saving…",
  conflict: "changed elsewhere",
};

export function WorkbenchBar({
  state,
  labels,
  readOnly,
  blind,
  dispatch,
  onHelp,
}: {
  state: TimelineState;
  /** The labels new spans take (`t` cycles them). */
  labels: readonly SpanLabel[];
  readOnly: boolean;
  blind: boolean;
  dispatch: Dispatch<TimelineAction>;
  onHelp: (() => void) | null;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-700" data-testid="span-bar">
      {!readOnly && (
        <label className="flex items-center gap-1">
          Label <kbd className="font-mono text-slate-600">t</kbd>
          <select
            aria-label="Span label"
            className="rounded border border-slate-300 bg-white px-1 py-0.5"
            value={labels.length > 0 ? state.labelIndex % labels.length : ""}
            onChange={(e) => dispatch({ type: "label", index: Number(e.target.value) })}
            data-testid="span-label-select"
          >
            {labels.map((label, i) => (
              <option key={label.id} value={i} title={label.definition}>
                {label.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {!readOnly && (
        <span data-testid="in-out">
          in <b className="font-mono">{state.inFrame ?? "—"}</b> · out{" "}
          <b className="font-mono">{state.outFrame ?? "—"}</b>
        </span>
      )}
      {readOnly && <span className="text-slate-500">Spans are shown read only.</span>}
      {blind && <span className="text-slate-500">Blind review: only your own spans show until you submit.</span>}
      {onHelp && (
        <button
          type="button"
          className="ml-auto rounded border border-slate-300 px-1.5 hover:bg-slate-100"
          onClick={onHelp}
          data-testid="timeline-help"
        >
          Keys <kbd className="font-mono">?</kbd>
        </button>
      )}
    </div>
  );
}

/**
 * The status under the timeline, in rows of fixed height that are there before anything shows in them: the selected
 * span and the last message. A line appearing above the timeline would move it under the pointer (a drag meant for a
 * span lands on empty track and marks one; a ruler click lands frames off). Conflicts, rare and to be answered, add
 * rows below.
 */
export function WorkbenchStatus({
  state,
  labels,
  selectedOwn,
  selectedOther,
  dispatch,
}: {
  state: TimelineState;
  /** Every label of the task (a selected span's name). */
  labels: readonly SpanLabel[];
  selectedOwn: OwnSpan | null;
  selectedOther: SpanRecord | null;
  dispatch: Dispatch<TimelineAction>;
}) {
  const selected = selectedOwn?.draft ?? selectedOther;
  const message = state.message;
  return (
    <div className="flex flex-col text-xs text-slate-700" data-testid="span-status">
      <p className="h-4 truncate leading-4" data-testid="span-status-selection">
        {selected && (
          <span data-testid="selected-span">
            selected: <b>{labels.find((l) => l.id === selected.label)?.label ?? selected.label}</b> frames{" "}
            <span className="font-mono">
              {selected.startFrame}–{selected.endFrame}
            </span>
            {selectedOwn ? ` · ${STATUS_WORDS[selectedOwn.status]}` : " · not yours (read only)"}
            {selected.boxes.length > 0 &&
              ` · ${selected.boxes.length} box keyframe${selected.boxes.length > 1 ? "s" : ""}`}
          </span>
        )}
      </p>
      <div className="h-8 overflow-hidden leading-4" data-testid="span-status-message">
        {message && (
          <p
            role={message.tone === "error" ? "alert" : "status"}
            className={`line-clamp-2 ${message.tone === "error" ? "text-red-700" : "text-slate-600"}`}
            title={message.text}
            data-testid="span-message"
          >
            {message.text}
          </p>
        )}
      </div>
      <ConflictLine own={state.own} dispatch={dispatch} />
    </div>
  );
}

/** Each span whose save met a newer version: the user's edit is kept until they save it over that version or drop it. */
function ConflictLine({ own, dispatch }: { own: readonly OwnSpan[]; dispatch: Dispatch<TimelineAction> }) {
  const conflicts = own.filter((s) => s.status === "conflict" && s.conflict);
  if (conflicts.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1" data-testid="span-conflicts">
      {conflicts.map((s) => (
        <li key={s.key} className="flex flex-wrap items-center gap-2 rounded bg-amber-50 px-2 py-1 text-amber-900">
          <span>
            Your frames {s.draft.startFrame}–{s.draft.endFrame}; now version {s.conflict!.version} has frames{" "}
            {s.conflict!.startFrame}–{s.conflict!.endFrame} ({s.conflict!.label}).
          </span>
          <button
            type="button"
            className="rounded border border-amber-400 px-1.5"
            onClick={() => dispatch({ type: "retry", key: s.key })}
            data-testid="span-conflict-retry"
          >
            Save mine over it
          </button>
          <button
            type="button"
            className="rounded border border-amber-400 px-1.5"
            onClick={() => dispatch({ type: "discard", key: s.key })}
            data-testid="span-conflict-discard"
          >
            Take theirs
          </button>
        </li>
      ))}
    </ul>
  );
}
