"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, apiFetch } from "@/lib/api-client";
import { formatJudgmentValue, labelledAggregates } from "@/lib/reviews/labelled-aggregates";
import type { JudgedDeclaration } from "@/lib/reviews/judgment-target";
import type { ReviewRequest } from "@/lib/reviews/reviews.validation";
import { scaleBounds, type TargetDeclaration } from "@/lib/task-modules/task-declaration";
import { choiceLabels } from "@/lib/task-modules/task-display";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";

export interface HistoryEntry {
  version: number;
  at: string;
  by: string;
  before: {
    value?: number;
    note?: string | null;
    reason?: string | null;
    acceptedJudge?: boolean;
    withdrawn?: boolean;
  } | null;
  after: {
    value?: number;
    note?: string | null;
    reason?: string | null;
    acceptedJudge?: boolean;
    withdrawn?: boolean;
  } | null;
}
export interface Judgment {
  id: string;
  targetType: string;
  scoreId: string | null;
  runId: string;
  reviewer: { id: string; email?: string; name?: string | null };
  value: number;
  note: string | null;
  reason: string | null;
  /** Taken with the explicit accept-the-judge action, not given independently. */
  acceptedJudge?: boolean;
  version: number;
  updatedAt: string;
  history: HistoryEntry[];
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** "Judge 7 · You 3 · Reviewers' consensus (2) 4", each value labelled with whose it is. */
export function LabelledValues({
  targetType,
  judgeValue,
  judgments,
  currentUserId,
}: {
  /** The target's declaration, or its type ("score", a reviewed metric's id). */
  targetType: string | JudgedDeclaration;
  judgeValue: number | null;
  judgments: Judgment[];
  currentUserId: string;
}) {
  const { tasks } = useTaskCatalogue();
  const { judge, you, consensus } = labelledAggregates(targetType, judgeValue, judgments, currentUserId, tasks);
  return (
    <div className="flex flex-wrap gap-2 text-xs" data-testid="labelled-values">
      {[judge, you, consensus].map((item) =>
        item ? (
          <span
            key={item.label}
            className={`rounded px-2 py-0.5 ${item.label === "You" ? "bg-indigo-100 text-indigo-900" : item.label === "Judge" ? "bg-slate-100" : "bg-emerald-50 text-emerald-900"}`}
            data-testid={`value-${item.label === "Judge" ? "judge" : item.label === "You" ? "you" : "consensus"}`}
          >
            {item.label}:{" "}
            <b>{formatJudgmentValue(targetType, item.value, tasks, { tie: item !== judge && item !== you })}</b>
          </span>
        ) : null,
      )}
    </div>
  );
}

/** Every reviewer's changes to this item: who (email), when, before → after, with notes and reasons. */
export function JudgmentHistory({
  targetType,
  judgments,
}: {
  targetType: string | JudgedDeclaration;
  judgments: Judgment[];
}) {
  const { tasks } = useTaskCatalogue();
  const entries = judgments
    .flatMap((j) => j.history.map((h) => ({ ...h, email: j.reviewer.email ?? j.reviewer.name ?? j.reviewer.id })))
    .sort((a, b) => b.at.localeCompare(a.at) || b.version - a.version);
  if (entries.length === 0) return <p className="text-xs text-slate-500">No human judgments yet.</p>;
  const show = (v: HistoryEntry["after"]) =>
    v?.withdrawn && v.value === undefined
      ? "withdrawn"
      : v && typeof v.value === "number"
        ? `${formatJudgmentValue(targetType, v.value, tasks)}${v.withdrawn ? " (withdrawn)" : v.acceptedJudge ? " (accepted judge)" : ""}`
        : "—";
  return (
    <ol className="flex flex-col gap-1 text-xs" data-testid="judgment-history">
      {entries.map((h) => (
        <li key={`${h.email}-${h.version}`} className="rounded bg-slate-50 px-2 py-1" data-testid="history-entry">
          <span className="font-medium">{h.email}</span> · {when(h.at)} · v{h.version}:{" "}
          {h.before ? (
            <>
              {show(h.before)} → <b>{show(h.after)}</b>
            </>
          ) : (
            <>
              set <b>{show(h.after)}</b>
            </>
          )}
          {h.after?.note ? <span className="text-slate-600"> · note: {h.after.note}</span> : null}
          {h.after?.reason ? <span className="text-slate-600"> · reason: {h.after.reason}</span> : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * The caller's own value for one target (a judge score, the verdict or the overall), on the target's
 * declared scale (a number input within its bounds, or a choice of its named values), saved against
 * the version the form was opened on: an edit made meanwhile in another tab or session is a
 * conflict, shown with the current value and a reload button, never overwritten.
 */
export function JudgmentForm({
  targetType,
  declared,
  saveUrl,
  own,
  judgeValue,
  videoId,
  onSaved,
  onCancel,
}: {
  targetType: string;
  /** The target's or metric's declaration: its scale bounds the input. Null: any number. */
  declared: Pick<TargetDeclaration, "scale" | "positive"> | null;
  saveUrl: string;
  own: Judgment | null;
  judgeValue: number | null;
  videoId: string;
  onSaved?: () => void;
  onCancel?: () => void;
}) {
  const { tasks } = useTaskCatalogue();
  const choices = declared ? choiceLabels(declared) : [];
  const bounds = declared ? scaleBounds(declared.scale) : null;
  const step = declared?.scale.kind === "numeric" && declared.scale.step !== null ? declared.scale.step : "any";
  const { baseVersion, value, setValue, note, setNote, reason, setReason, save, withdraw, conflict, current, reload } =
    useJudgmentEdit({ saveUrl, own, judgeValue, videoId, onSaved });
  return (
    <form
      className="flex flex-wrap items-end gap-2 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-xs"
      onSubmit={(e) => {
        e.preventDefault();
        if (value !== "") save.mutate(false);
      }}
      data-testid="review-editor"
    >
      <ValueField value={value} setValue={setValue} choices={choices} bounds={bounds} step={step} />
      <NoteAndReasonFields note={note} setNote={setNote} reason={reason} setReason={setReason} />
      <button
        className="rounded bg-indigo-600 px-3 py-1 text-white disabled:opacity-50"
        disabled={save.isPending || conflict || value === ""}
      >
        Save
      </button>
      {judgeValue !== null && (
        <button
          type="button"
          className="rounded border border-indigo-300 bg-white px-3 py-1 text-indigo-800 disabled:opacity-50"
          disabled={save.isPending || conflict}
          onClick={() => save.mutate(true)}
          data-testid="accept-judge"
          title="Save the judge's value as yours, marked as accepted (left out of independent-only agreement)"
        >
          Accept judge&apos;s value ({formatJudgmentValue(declared ?? targetType, judgeValue, tasks)})
        </button>
      )}
      {own && baseVersion > 0 && (
        <button
          type="button"
          className="rounded border border-red-300 bg-white px-3 py-1 text-red-800 disabled:opacity-50"
          disabled={withdraw.isPending || save.isPending}
          onClick={() => withdraw.mutate()}
          data-testid="withdraw-judgment"
        >
          Withdraw
        </button>
      )}
      {own?.acceptedJudge && (
        <span className="rounded bg-amber-100 px-2 py-0.5 text-amber-900" data-testid="accepted-mark">
          accepted the judge&apos;s value
        </span>
      )}
      {withdraw.error && (
        <div role="alert" className="w-full text-red-700" data-testid="withdraw-error">
          {withdraw.error.message}
        </div>
      )}
      {onCancel && (
        <button type="button" className="rounded border border-slate-300 bg-white px-3 py-1" onClick={onCancel}>
          Close
        </button>
      )}
      {save.error && (
        <SaveError
          error={save.error}
          conflict={conflict}
          current={current && formatJudgmentValue(declared ?? targetType, current.value, tasks)}
          currentVersion={current?.version}
          onReload={reload}
        />
      )}
    </form>
  );
}

/** The judgment's note (free text) and its short reason, both optional. */
function NoteAndReasonFields({
  note,
  setNote,
  reason,
  setReason,
}: {
  note: string;
  setNote: (note: string) => void;
  reason: string;
  setReason: (reason: string) => void;
}) {
  return (
    <>
      <label className="flex flex-col gap-0.5">
        <span>Note</span>
        <input
          className="w-64 rounded border border-slate-300 px-2 py-1"
          placeholder="optional"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          aria-label="Note"
          maxLength={5000}
        />
      </label>
      <label className="flex flex-col gap-0.5">
        <span>Reason</span>
        <input
          className="w-40 rounded border border-slate-300 px-2 py-1"
          placeholder="optional, short"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-label="Reason"
          maxLength={200}
        />
      </label>
    </>
  );
}

function ValueField({
  value,
  setValue,
  choices,
  bounds,
  step,
}: {
  value: string;
  setValue: (value: string) => void;
  choices: ReturnType<typeof choiceLabels>;
  bounds: ReturnType<typeof scaleBounds> | null;
  step: number | "any";
}) {
  return (
    <label className="flex flex-col gap-0.5">
      <span>Your value{choices.length || !bounds ? "" : ` (${bounds.min}–${bounds.max})`}</span>
      {choices.length ? (
        <select
          className="rounded border border-slate-300 bg-white px-2 py-1"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-label="Your value"
        >
          <option value="" disabled>
            choose…
          </option>
          {choices.map((choice) => (
            <option key={choice.value} value={String(choice.value)}>
              {choice.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          className="w-20 rounded border border-slate-300 px-2 py-1"
          type="number"
          min={bounds?.min}
          max={bounds?.max}
          step={step}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          autoFocus
          aria-label="Your value"
        />
      )}
    </label>
  );
}

/** Why the save failed; on a conflict, the value saved meanwhile (once refetched) and a Reload that takes it up. */
function SaveError({
  error,
  conflict,
  current,
  currentVersion,
  onReload,
}: {
  error: Error;
  conflict: boolean;
  /** The value saved meanwhile, formatted; null until the reviews are refetched. */
  current: string | null;
  currentVersion: number | undefined;
  onReload: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex w-full flex-wrap items-center gap-2 text-red-700"
      data-testid={conflict ? "review-conflict" : "review-error"}
    >
      {conflict ? (
        <>
          <span>
            {current !== null
              ? `Changed in another tab/session: now version ${currentVersion}, value ${current}. Nothing was overwritten.`
              : `${error.message} Nothing was overwritten.`}
          </span>
          <button
            type="button"
            className="rounded border border-red-300 bg-white px-2 py-0.5 text-red-800"
            onClick={onReload}
          >
            Reload
          </button>
        </>
      ) : (
        error.message
      )}
    </div>
  );
}

/** The form's value, note and reason, and the requests that save, accept and withdraw them against a version. */
function useJudgmentEdit({
  saveUrl,
  own,
  judgeValue,
  videoId,
  onSaved,
}: {
  saveUrl: string;
  own: Judgment | null;
  judgeValue: number | null;
  videoId: string;
  onSaved?: () => void;
}) {
  const queryClient = useQueryClient();
  // Honest judgments: the editor starts empty or on the reviewer's own last value, never the judge's,
  // so Save never means agreeing by default; taking the judge's value is the explicit Accept action.
  const [baseVersion, setBaseVersion] = useState(own?.version ?? 0);
  const [value, setValue] = useState(own ? String(own.value) : "");
  const [note, setNote] = useState(own?.note ?? "");
  const [reason, setReason] = useState(own?.reason ?? "");
  const save = useMutation({
    mutationFn: (accept: boolean) =>
      apiFetch<{ version: number }>(saveUrl, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          // Accept is offered only when the judge has a value.
          value: accept && judgeValue !== null ? judgeValue : Number(value),
          note: note || null,
          reason: reason || null,
          ...(accept ? { acceptedJudge: true } : {}),
          // A first judgment (or one saved again after withdrawing it) names no version.
          ...(baseVersion > 0 ? { expectedVersion: baseVersion } : {}),
        } satisfies ReviewRequest),
      }),
    onSuccess: async (saved, accept) => {
      setBaseVersion(saved.version);
      if (accept && judgeValue !== null) setValue(String(judgeValue));
      await refetchAfterWrite(queryClient, ["reviews", videoId]);
      onSaved?.();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void refetchAfterWrite(queryClient, ["reviews", videoId]);
    },
  });
  const withdraw = useMutation({
    mutationFn: () =>
      apiFetch<{ version: number }>(`/api/v1/judgments/${own!.id}`, {
        method: "DELETE",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ expectedVersion: baseVersion }),
      }),
    onSuccess: async () => {
      // Saving the target again starts like a first judgment.
      setBaseVersion(0);
      setValue("");
      await refetchAfterWrite(queryClient, ["reviews", videoId]);
      onSaved?.();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void refetchAfterWrite(queryClient, ["reviews", videoId]);
    },
  });
  const conflict = save.error instanceof ApiError && save.error.status === 409;
  // Once the reviews are refetched, `own` is what the other tab or session saved.
  const current = conflict && own && own.version !== baseVersion ? own : null;
  const reload = () => {
    if (own) {
      setBaseVersion(own.version);
      setValue(String(own.value));
      setNote(own.note ?? "");
      setReason(own.reason ?? "");
    }
    save.reset();
  };
  return { baseVersion, value, setValue, note, setNote, reason, setReason, save, withdraw, conflict, current, reload };
}
