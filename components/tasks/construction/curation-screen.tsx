"use client";

import { useCallback, useRef, useState } from "react";
import { KeyListOverlay } from "@/components/key-list-overlay";
import { Guidelines } from "@/components/markdown";
import { editedQuestionProblem, type CuratedFields, type CurationEdits } from "@/lib/tasks/construction/curation";
import {
  CurationActions,
  CurationConflictNotice,
  CurationDone,
  CurationEditForm,
  CurationFilters,
  CurationHeader,
  CurationMedia,
  CurationQuestion,
  CurationRejectForm,
} from "@/components/tasks/construction/curation-parts";
import { useCurationItems, useCurationKeys, useCurationSave } from "@/components/tasks/construction/use-curation-items";

const SHORTCUTS: [string, string][] = [
  ["a", "accept the question as it is"],
  ["e", "edit the question, options, answer or category, then accept (Ctrl+Enter saves, Esc cancels)"],
  ["r", "reject, with a reason (Enter saves, Esc cancels)"],
  ["j / → / ↓", "next question"],
  ["k / ← / ↑", "previous question"],
  ["1–9", "seek the player to that step"],
  ["?", "show or hide this help"],
];

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

type CurationItem = NonNullable<ReturnType<typeof useCurationItems>["data"]>;

/** The edit form's fields as it opens: the curator's accepted edits over the candidate's own fields. */
function editDraftOf(data: CurationItem): CuratedFields {
  const mine = data.mine?.decision === "accept" ? data.mine.edits : {};
  const f = data.candidate.fields;
  return {
    question: mine.question ?? f.question,
    options: mine.options ? { ...f.options, ...mine.options } : f.options ? { ...f.options } : null,
    answer: mine.answer ?? f.answer,
    category: mine.category === undefined ? f.category : mine.category,
  };
}

/** What the last action said: a notice, or an error. */
function CurationMessages({ notice, error }: { notice: string | null; error: string | null }) {
  return (
    <>
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
    </>
  );
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
  const items = useCurationItems(projectId, queueId, startItemId);
  const { data, done, busy, mode, setMode, error, notice, conflict } = items;
  const save = useCurationSave(items);
  const [help, setHelp] = useState(false);
  const closeHelp = useCallback(() => setHelp(false), []);
  const [draft, setDraft] = useState<CuratedFields | null>(null);
  const [reason, setReason] = useState("");
  const player = useRef<HTMLVideoElement>(null);

  const startEdit = useCallback(() => {
    if (!data) return;
    setDraft(editDraftOf(data));
    setMode("edit");
  }, [data, setMode]);
  const startReject = useCallback(() => {
    setReason(data?.mine?.decision === "reject" ? (data.mine.reason ?? "") : "");
    setMode("reject");
  }, [data, setMode]);
  const toggleHelp = useCallback(() => setHelp((h) => !h), []);
  useCurationKeys(items, { save, startEdit, startReject, toggleHelp, player });

  if (error && !data)
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        {error}
      </p>
    );
  if (done) return <CurationDone projectId={projectId} notice={notice} />;
  if (!data) return <p className="text-sm text-slate-500">Loading…</p>;

  const c = data.candidate;
  const problem = draft && mode === "edit" ? editedQuestionProblem(c.fields, editsOf(c.fields, draft)) : null;
  const version = data.mine?.version;
  return (
    <div className="flex flex-col gap-4" data-testid="curation-screen" data-item-id={c.itemId} aria-busy={busy}>
      <CurationHeader projectId={projectId} data={data} onHelp={toggleHelp} />
      <CurationMessages notice={notice} error={error} />
      <KeyListOverlay open={help} onClose={closeHelp} keys={SHORTCUTS} testId="curation-help" />
      {conflict && (
        <CurationConflictNotice
          conflict={conflict}
          onReapply={() => void save(conflict.mine, conflict.current?.version)}
          onKeep={() => items.reload(c.itemId)}
        />
      )}

      <div className="grid gap-5 lg:grid-cols-2">
        <CurationMedia data={data} player={player} />

        <div className="flex flex-col gap-3">
          {mode === "edit" && draft ? (
            <CurationEditForm
              draft={draft}
              setDraft={setDraft}
              problem={problem}
              busy={busy}
              onSave={() => void save({ decision: "accept", edits: editsOf(c.fields, draft) }, version)}
              onCancel={() => setMode("view")}
            />
          ) : (
            <CurationQuestion c={c} />
          )}

          {mode === "reject" && (
            <CurationRejectForm
              reason={reason}
              setReason={setReason}
              busy={busy}
              onSave={() => void save({ decision: "reject", edits: {}, reason: reason.trim() }, version)}
              onCancel={() => setMode("view")}
            />
          )}

          <CurationFilters c={c} />

          {mode === "view" && !conflict && (
            <CurationActions
              busy={busy}
              onAccept={() => void save({ decision: "accept", edits: {} }, version)}
              onEdit={startEdit}
              onReject={() => setMode("reject")}
            />
          )}
          <Guidelines project={data.guidelines.project} queue={data.guidelines.queue} />
        </div>
      </div>
    </div>
  );
}
