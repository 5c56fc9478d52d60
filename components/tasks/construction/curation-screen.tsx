"use client";

import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, apiFetch } from "@/lib/api-client";
import { buttonClass } from "@/components/class-names";
import { isTypingTarget } from "@/components/is-typing-target";
import { KeyListOverlay } from "@/components/key-list-overlay";
import { Guidelines } from "@/components/markdown";
import { editedQuestionProblem, type CuratedFields, type CurationEdits } from "@/lib/tasks/construction/curation";
import type { curationItem } from "@/lib/tasks/construction/curation-queues";
import { FILTERS } from "@/lib/tasks/construction/filter-funnel";

type ItemData = Awaited<ReturnType<typeof curationItem>>;
type Mode = "view" | "edit" | "reject";
interface Current {
  version: number;
  decision: string;
  edits: CurationEdits;
  reason: string | null;
}
interface Conflict {
  current: Current | null;
  /** What this curator tried to save. */
  mine: { decision: "accept" | "reject"; edits: CurationEdits; reason?: string };
}

const SHORTCUTS: [string, string][] = [
  ["a", "accept the question as it is"],
  ["e", "edit the question, options, answer or category, then accept (Ctrl+Enter saves, Esc cancels)"],
  ["r", "reject, with a reason (Enter saves, Esc cancels)"],
  ["j / → / ↓", "next question"],
  ["k / ← / ↑", "previous question"],
  ["1–9", "seek the player to that step"],
  ["?", "show or hide this help"],
];

const itemUrl = (queueId: string, itemId: string) =>
  `/api/v1/curation-queues/${queueId}/items/${encodeURIComponent(itemId)}`;

/** Fields of the edit form, as the curator types them; compared with the candidate to send only what changed. */
function editsOf(original: CuratedFields, draft: CuratedFields): CurationEdits {
  const edits: CurationEdits = {};
  if (draft.question.trim() !== original.question) edits.question = draft.question.trim();
  if (draft.options && JSON.stringify(draft.options) !== JSON.stringify(original.options))
    edits.options = draft.options;
  if (draft.answer.trim() !== original.answer) edits.answer = draft.answer.trim();
  if ((draft.category?.trim() || null) !== original.category) edits.category = draft.category?.trim() || null;
  return edits;
}

/**
 * Keyboard-first curation of constructed questions, like the review screen: one candidate at a time, the
 * next one prefetched so a decision moves on at once, and keys typed while something loads are kept and
 * played in order once it is there.
 */
export function CurationScreen({
  projectId,
  queueId,
  startItemId,
}: {
  projectId: string;
  queueId: string;
  startItemId: string | null;
}) {
  const cache = useRef(new Map<string, ItemData>());
  const [itemId, setItemId] = useState<string | null>(startItemId);
  const [data, setData] = useState<ItemData | null>(null);
  const [nextId, setNextId] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(true);
  const [mode, setMode] = useState<Mode>("view");
  const [help, setHelp] = useState(false);
  const closeHelp = useCallback(() => setHelp(false), []);
  const [draft, setDraft] = useState<CuratedFields | null>(null);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  /** Bumped to load the current item again from the server (after a 409, keeping the saved decision). */
  const [reloads, setReloads] = useState(0);
  const player = useRef<HTMLVideoElement>(null);
  const queuedKeys = useRef<KeyboardEvent[]>([]);

  const load = useCallback(
    async (id: string) => {
      const cached = cache.current.get(id);
      if (cached) return cached;
      const fresh = await apiFetch<ItemData>(itemUrl(queueId, id));
      cache.current.set(id, fresh);
      return fresh;
    },
    [queueId],
  );

  const prefetchNext = useCallback(
    async (current: string | null) => {
      const next = await apiFetch<{ itemId: string | null }>(
        `/api/v1/curation-queues/${queueId}/next${current ? `?skip=${encodeURIComponent(current)}` : ""}`,
      ).catch(() => ({ itemId: null }));
      setNextId(next.itemId);
      if (next.itemId) void load(next.itemId).catch(() => {});
      return next.itemId;
    },
    [queueId, load],
  );

  // The first item: the one in the link, else the caller's next.
  useEffect(() => {
    if (itemId) return;
    let live = true;
    void (async () => {
      const next = await apiFetch<{ itemId: string | null }>(`/api/v1/curation-queues/${queueId}/next`).catch(
        (e: unknown) => {
          setError(e instanceof Error ? e.message : String(e));
          return { itemId: null };
        },
      );
      if (!live) return;
      if (next.itemId) setItemId(next.itemId);
      else {
        setDone(true);
        setBusy(false);
      }
    })();
    return () => {
      live = false;
    };
  }, [itemId, queueId]);

  useEffect(() => {
    if (!itemId) return;
    let live = true;
    setBusy(true);
    void load(itemId)
      .then((loaded) => {
        if (!live) return;
        setData(loaded);
        setDone(false);
        setMode("view");
        setConflict(null);
        setBusy(false);
        window.history.replaceState(
          null,
          "",
          `/projects/${projectId}/curation/${queueId}?item=${encodeURIComponent(itemId)}`,
        );
        void prefetchNext(itemId);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setError(e instanceof Error ? e.message : String(e));
        setBusy(false);
      });
    return () => {
      live = false;
    };
  }, [itemId, load, prefetchNext, projectId, queueId, reloads]);

  const goTo = useCallback((id: string | null) => {
    if (!id) return;
    setError(null);
    setNotice(null);
    setItemId(id);
  }, []);

  const save = useCallback(
    async (mine: Conflict["mine"], expectedVersion: number | undefined) => {
      if (!data) return;
      setBusy(true);
      setError(null);
      try {
        const saved = await apiFetch<{ version: number; decision: string }>(
          `/api/v1/items/${encodeURIComponent(data.candidate.itemId)}/curation`,
          {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ ...mine, ...(expectedVersion ? { expectedVersion } : {}) }),
          },
        );
        cache.current.delete(data.candidate.itemId);
        setConflict(null);
        setMode("view");
        setNotice(
          `${saved.decision === "accept" ? "Accepted" : "Rejected"}${Object.keys(mine.edits).length ? " with your edits" : ""} (version ${saved.version}).`,
        );
        const upcoming =
          nextId && nextId !== data.candidate.itemId ? nextId : await prefetchNext(data.candidate.itemId);
        if (upcoming) setItemId(upcoming);
        else {
          setData(null);
          setDone(true);
          setBusy(false);
        }
      } catch (e) {
        setBusy(false);
        if (e instanceof ApiError && e.status === 409) {
          const current = ((e.body as { error?: { details?: { current?: Current | null } } })?.error?.details
            ?.current ?? null) as Current | null;
          setConflict({ current, mine });
          return;
        }
        setError(e instanceof Error ? e.message : String(e));
      }
    },
    [data, nextId, prefetchNext],
  );

  const startEdit = useCallback(() => {
    if (!data) return;
    const mine = data.mine?.decision === "accept" ? data.mine.edits : {};
    const f = data.candidate.fields;
    setDraft({
      question: mine.question ?? f.question,
      options: mine.options ? { ...f.options, ...mine.options } : f.options ? { ...f.options } : null,
      answer: mine.answer ?? f.answer,
      category: mine.category === undefined ? f.category : mine.category,
    });
    setMode("edit");
  }, [data]);

  const handleKey = useCallback(
    (event: KeyboardEvent) => {
      if (!data) return;
      const key = event.key;
      if (key === "?") return setHelp((h) => !h);
      if (key === "a") return void save({ decision: "accept", edits: {} }, data.mine?.version);
      if (key === "e") {
        event.preventDefault();
        return startEdit();
      }
      if (key === "r") {
        event.preventDefault();
        setReason(data.mine?.decision === "reject" ? (data.mine.reason ?? "") : "");
        return setMode("reject");
      }
      if (key === "j" || key === "ArrowRight" || key === "ArrowDown") {
        event.preventDefault();
        return goTo(data.nav.nextItemId);
      }
      if (key === "k" || key === "ArrowLeft" || key === "ArrowUp") {
        event.preventDefault();
        return goTo(data.nav.previousItemId);
      }
      if (/^[1-9]$/.test(key)) {
        const step = data.stepFrames[Number(key) - 1];
        if (step && player.current) {
          player.current.pause();
          player.current.currentTime = step.start;
        }
      }
    },
    [data, goTo, save, startEdit],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target) || mode !== "view" || conflict)
        return;
      if (busy || !data) {
        // Kept, and played once the item is there: nothing typed during a load is lost.
        if (!done) queuedKeys.current.push(event);
        return;
      }
      handleKey(event);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, conflict, data, done, handleKey, mode]);

  useEffect(() => {
    if (busy || !data || mode !== "view" || conflict) return;
    const queued = queuedKeys.current.shift();
    if (queued) handleKey(queued);
  }, [busy, conflict, data, handleKey, mode]);

  if (error && !data)
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        {error}
      </p>
    );
  if (done)
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
  if (!data) return <p className="text-sm text-slate-500">Loading…</p>;

  const c = data.candidate;
  const problem = draft && mode === "edit" ? editedQuestionProblem(c.fields, editsOf(c.fields, draft)) : null;
  return (
    <div className="flex flex-col gap-4" data-testid="curation-screen" data-item-id={c.itemId} aria-busy={busy}>
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
        <button type="button" className="ml-auto text-xs text-slate-500 underline" onClick={() => setHelp((h) => !h)}>
          keys (?)
        </button>
      </div>
      {notice && (
        <p className="text-sm text-emerald-800" data-testid="curation-notice">
          {notice}
        </p>
      )}
      {error && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-800"
          data-testid="curation-error"
        >
          {error}
        </p>
      )}
      <KeyListOverlay open={help} onClose={closeHelp} keys={SHORTCUTS} testId="curation-help" />
      {conflict && (
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
            <button
              type="button"
              autoFocus
              className={buttonClass()}
              data-testid="conflict-reapply"
              onClick={() => void save(conflict.mine, conflict.current?.version)}
            >
              Re-apply mine
            </button>
            <button
              type="button"
              className={buttonClass("secondary")}
              data-testid="conflict-keep"
              onClick={() => {
                cache.current.delete(c.itemId);
                setConflict(null);
                setReloads((n) => n + 1);
              }}
            >
              Keep the saved one
            </button>
          </div>
        </div>
      )}

      <div className="grid gap-5 lg:grid-cols-2">
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
                  {/* eslint-disable-next-line @next/next/no-img-element */}
                  {s.frame ? (
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

        <div className="flex flex-col gap-3">
          {mode === "edit" && draft ? (
            <form
              className="flex flex-col gap-2 rounded-md border border-indigo-200 bg-white p-3"
              data-testid="curation-edit"
              onSubmit={(event) => {
                event.preventDefault();
                if (!problem) void save({ decision: "accept", edits: editsOf(c.fields, draft) }, data.mine?.version);
              }}
              onKeyDown={(event) => {
                if (event.key === "Escape") setMode("view");
                if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  if (!problem) void save({ decision: "accept", edits: editsOf(c.fields, draft) }, data.mine?.version);
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
                <button type="button" className={buttonClass("secondary")} onClick={() => setMode("view")}>
                  Cancel (Esc)
                </button>
              </div>
            </form>
          ) : (
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
          )}

          {mode === "reject" && (
            <form
              className="flex flex-col gap-2 rounded-md border border-red-200 bg-white p-3"
              data-testid="curation-reject"
              onSubmit={(event) => {
                event.preventDefault();
                if (reason.trim())
                  void save({ decision: "reject", edits: {}, reason: reason.trim() }, data.mine?.version);
              }}
              onKeyDown={(event) => {
                if (event.key === "Escape") setMode("view");
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
                <button type="button" className={buttonClass("secondary")} onClick={() => setMode("view")}>
                  Cancel (Esc)
                </button>
              </div>
            </form>
          )}

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
                        {decision.removed
                          ? c.restoredFrom === f.id
                            ? "removed, restored by a curator"
                            : "removed"
                          : "kept"}{" "}
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

          {mode === "view" && !conflict && (
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className={buttonClass()}
                disabled={busy}
                onClick={() => void save({ decision: "accept", edits: {} }, data.mine?.version)}
              >
                Accept (a)
              </button>
              <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={startEdit}>
                Edit (e)
              </button>
              <button type="button" className={buttonClass("danger")} disabled={busy} onClick={() => setMode("reject")}>
                Reject (r)
              </button>
            </div>
          )}
          <Guidelines project={data.guidelines.project} queue={data.guidelines.queue} />
        </div>
      </div>
    </div>
  );
}
