/**
 * The curation screen's parts: its header, the conflict after another tab's save, the video with its steps, the
 * question (shown or edited), the reject form, the filters' decisions and the action buttons.
 */
import Link from "next/link";
import type { RefObject } from "react";
import { buttonClass } from "@/components/class-names";
import type { CuratedFields } from "@/lib/tasks/construction/curation";
import type { CurationEdits } from "@/lib/tasks/construction/curation";
import type { curationItem } from "@/lib/tasks/construction/curation-queues";
import { FILTERS } from "@/lib/tasks/construction/filter-funnel";

export type ItemData = Awaited<ReturnType<typeof curationItem>>;
type Candidate = ItemData["candidate"];
export interface Current {
  version: number;
  decision: string;
  edits: CurationEdits;
  reason: string | null;
}
export interface Conflict {
  current: Current | null;
  /** What this curator tried to save. */
  mine: { decision: "accept" | "reject"; edits: CurationEdits; reason?: string };
}

export function CurationDone({ projectId, notice }: { projectId: string; notice: string | null }) {
  return (
    <div className="flex flex-col gap-3" data-testid="curation-done">
      {notice && (
        <p className="text-sm text-emerald-800" data-testid="curation-notice">
          {notice}
        </p>
      )}
      <p className="rounded-md border border-slate-200 bg-white p-4 text-sm text-slate-700">
        Nothing left for you to curate in this queue. Every question has its curators, or you decided it already.
      </p>
      <Link href={`/projects/${projectId}/curation`} className="text-sm text-indigo-700 underline">
        Back to the curation queues
      </Link>
    </div>
  );
}

export function CurationHeader({ projectId, data, onHelp }: { projectId: string; data: ItemData; onHelp: () => void }) {
  const c = data.candidate;
  return (
    <div className="flex flex-wrap items-baseline gap-3 text-sm text-slate-600">
      <Link href={`/projects/${projectId}/curation`} className="text-indigo-700 underline">
        {data.queue.name}
      </Link>
      <span data-testid="curation-position">
        Question {data.nav.index + 1} of {data.nav.count} · {c.externalId} · {c.dataset} · {c.granularity}
      </span>
      <span>
        {data.decided} of {data.queue.curatorsPerQuestion} decision{data.queue.curatorsPerQuestion === 1 ? "" : "s"} ·{" "}
        {data.status}
      </span>
      {data.mine && (
        <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-800" data-testid="my-decision">
          your decision: {data.mine.decision} (version {data.mine.version})
        </span>
      )}
      <button type="button" className="ml-auto text-xs text-slate-500 underline" onClick={onHelp}>
        keys (?)
      </button>
    </div>
  );
}

export function CurationConflictNotice({
  conflict,
  onReapply,
  onKeep,
}: {
  conflict: Conflict;
  onReapply: () => void;
  onKeep: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="curation-conflict"
    >
      <p>
        Your decision on this question was changed elsewhere (another tab):{" "}
        {conflict.current ? (
          <b>
            version {conflict.current.version}: {conflict.current.decision}
            {conflict.current.reason ? ` (${conflict.current.reason})` : ""}
            {Object.keys(conflict.current.edits ?? {}).length
              ? `, with edits ${JSON.stringify(conflict.current.edits)}`
              : ""}
          </b>
        ) : (
          "it no longer exists"
        )}
        . Yours was: <b>{conflict.mine.decision}</b>
        {conflict.mine.reason ? ` (${conflict.mine.reason})` : ""}
        {Object.keys(conflict.mine.edits).length ? `, with edits ${JSON.stringify(conflict.mine.edits)}` : ""}.
      </p>
      <div className="flex gap-2">
        <button type="button" autoFocus className={buttonClass()} data-testid="conflict-reapply" onClick={onReapply}>
          Re-apply mine
        </button>
        <button type="button" className={buttonClass("secondary")} data-testid="conflict-keep" onClick={onKeep}>
          Keep the saved one
        </button>
      </div>
    </div>
  );
}

/** The video with one button per annotated step, which seeks the player to the step's start. */
export function CurationMedia({ data, player }: { data: ItemData; player: RefObject<HTMLVideoElement | null> }) {
  const c = data.candidate;
  return (
    <div className="flex flex-col gap-3">
      <video
        ref={player}
        src={data.video.url}
        controls
        preload="metadata"
        className="max-h-[45vh] w-full rounded-lg bg-black"
        data-testid="player"
      />
      <p className="text-xs text-slate-500">{data.video.fileName}</p>
      <ol className="flex flex-col gap-2" data-testid="curation-steps">
        {data.stepFrames.map((s) => (
          <li key={s.step}>
            <button
              type="button"
              className="flex w-full items-center gap-3 rounded-md border border-slate-200 bg-white p-2 text-left text-sm hover:border-indigo-300"
              onClick={() => {
                if (player.current) {
                  player.current.pause();
                  player.current.currentTime = s.start;
                }
              }}
            >
              {s.frame ? (
                // eslint-disable-next-line @next/next/no-img-element
                <img
                  src={s.frame.url}
                  alt={`step ${s.step} at ${s.frame.timestampS.toFixed(2)} s`}
                  className="h-12 rounded"
                />
              ) : (
                <span className="h-12 w-16 rounded bg-slate-100" />
              )}
              <span>
                <span className="font-mono text-xs text-slate-500">
                  {s.step} · {s.start.toFixed(1)}–{s.end.toFixed(1)} s
                </span>
                <br />
                {s.text}
              </span>
            </button>
          </li>
        ))}
      </ol>
      {c.clip.theme && (
        <p className="text-sm text-slate-700">
          Theme: <b>{c.clip.theme}</b>
        </p>
      )}
    </div>
  );
}

export function CurationEditForm({
  draft,
  setDraft,
  problem,
  busy,
  onSave,
  onCancel,
}: {
  draft: CuratedFields;
  setDraft: (draft: CuratedFields) => void;
  problem: string | null;
  busy: boolean;
  onSave: () => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="flex flex-col gap-2 rounded-md border border-indigo-200 bg-white p-3"
      data-testid="curation-edit"
      onSubmit={(event) => {
        event.preventDefault();
        if (!problem) onSave();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          if (!problem) onSave();
        }
      }}
    >
      <label className="text-xs font-medium text-slate-600">
        Question
        <textarea
          autoFocus
          className="mt-1 w-full rounded border border-slate-300 p-2 text-sm"
          rows={3}
          value={draft.question}
          data-testid="edit-question"
          onChange={(e) => setDraft({ ...draft, question: e.target.value })}
        />
      </label>
      {draft.options &&
        Object.entries(draft.options).map(([letter, text]) => (
          <label key={letter} className="text-xs font-medium text-slate-600">
            Option {letter}
            <input
              className="mt-1 w-full rounded border border-slate-300 p-1.5 text-sm"
              value={text}
              data-testid={`edit-option-${letter}`}
              onChange={(e) => setDraft({ ...draft, options: { ...draft.options, [letter]: e.target.value } })}
            />
          </label>
        ))}
      <label className="text-xs font-medium text-slate-600">
        {draft.options ? "Correct letter" : "Answer"}
        <input
          className="mt-1 w-full rounded border border-slate-300 p-1.5 text-sm"
          value={draft.answer}
          data-testid="edit-answer"
          onChange={(e) => setDraft({ ...draft, answer: e.target.value })}
        />
      </label>
      <label className="text-xs font-medium text-slate-600">
        Category
        <input
          className="mt-1 w-full rounded border border-slate-300 p-1.5 text-sm"
          value={draft.category ?? ""}
          data-testid="edit-category"
          onChange={(e) => setDraft({ ...draft, category: e.target.value })}
        />
      </label>
      {problem && (
        <p role="alert" className="text-sm text-red-700" data-testid="edit-problem">
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" className={buttonClass()} disabled={!!problem || busy}>
          Accept with edits (Ctrl+Enter)
        </button>
        <button type="button" className={buttonClass("secondary")} onClick={onCancel}>
          Cancel (Esc)
        </button>
      </div>
    </form>
  );
}

export function CurationQuestion({ c }: { c: Candidate }) {
  return (
    <div
      className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white p-3"
      data-testid="curation-question"
    >
      <p className="text-base font-medium text-slate-900">{c.fields.question}</p>
      {c.fields.options ? (
        <ul className="flex flex-col gap-1 text-sm">
          {Object.entries(c.fields.options).map(([letter, text]) => (
            <li
              key={letter}
              className={letter === c.fields.answer ? "font-medium text-emerald-800" : "text-slate-700"}
              data-correct={letter === c.fields.answer}
            >
              {letter}. {text} {letter === c.fields.answer && <span className="text-xs">(correct)</span>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-700">
          Reference answer: <span className="font-medium text-emerald-800">{c.fields.answer}</span>
        </p>
      )}
      <p className="text-xs text-slate-500">
        Category: {c.fields.category ?? "(none yet)"} · generator&apos;s reason: {c.generatorReason}
      </p>
    </div>
  );
}

export function CurationRejectForm({
  reason,
  setReason,
  busy,
  onSave,
  onCancel,
}: {
  reason: string;
  setReason: (reason: string) => void;
  busy: boolean;
  onSave: () => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="flex flex-col gap-2 rounded-md border border-red-200 bg-white p-3"
      data-testid="curation-reject"
      onSubmit={(event) => {
        event.preventDefault();
        if (reason.trim()) onSave();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <label className="text-xs font-medium text-slate-600">
        Why is it rejected? (required)
        <input
          autoFocus
          className="mt-1 w-full rounded border border-slate-300 p-1.5 text-sm"
          value={reason}
          data-testid="reject-reason"
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <div className="flex gap-2">
        <button type="submit" className={buttonClass("danger")} disabled={!reason.trim() || busy}>
          Reject (Enter)
        </button>
        <button type="button" className={buttonClass("secondary")} onClick={onCancel}>
          Cancel (Esc)
        </button>
      </div>
    </form>
  );
}

/** How each filter of the funnel decided on the candidate, and its multiple-choice transform if it is not done. */
export function CurationFilters({ c }: { c: Candidate }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white p-3 text-sm" data-testid="curation-filters">
      <h3 className="mb-1 text-xs font-medium uppercase text-slate-500">Filters</h3>
      <ul className="flex flex-col gap-1">
        {FILTERS.map((f) => {
          const decision = c.filters[f.id];
          return (
            <li key={f.id}>
              <span className="font-medium">{f.label}:</span>{" "}
              {decision ? (
                <span className={decision.removed ? "text-red-700" : "text-emerald-800"}>
                  {decision.removed ? (c.restoredFrom === f.id ? "removed, restored by a curator" : "removed") : "kept"}{" "}
                  — {decision.reason}
                </span>
              ) : (
                <span className="text-slate-500">not decided</span>
              )}
            </li>
          );
        })}
      </ul>
      {c.transform && c.transform.state !== "transformed" && (
        <p className="mt-1 text-xs text-slate-500">
          Multiple choice:{" "}
          {c.transform.state === "could_not_transform"
            ? `could not transform (${c.transform.attempts} attempts)`
            : "in progress"}
        </p>
      )}
    </div>
  );
}

export function CurationActions({
  busy,
  onAccept,
  onEdit,
  onReject,
}: {
  busy: boolean;
  onAccept: () => void;
  onEdit: () => void;
  onReject: () => void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className={buttonClass()} disabled={busy} onClick={onAccept}>
        Accept (a)
      </button>
      <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={onEdit}>
        Edit (e)
      </button>
      <button type="button" className={buttonClass("danger")} disabled={busy} onClick={onReject}>
        Reject (r)
      </button>
    </div>
  );
}
