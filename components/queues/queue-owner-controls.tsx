"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch } from "@/lib/api-client";
import type { QueueHandOut, QueueStateInput } from "@/lib/queues/queue-states.validation";

const patch = (queueId: string, body: QueueStateInput) =>
  apiFetch(`/api/v1/queues/${queueId}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** Owners' controls on a queue page: archive / restore, assign the queue to named reviewers by email, and the hand-out order. */
export function QueueOwnerControls({
  queueId,
  archived,
  assignees,
  handOut,
}: {
  queueId: string;
  archived: boolean;
  assignees: string[];
  handOut: QueueHandOut;
}) {
  const router = useRouter();
  const [emails, setEmails] = useState(assignees.join(", "));
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (body: QueueStateInput, done: string) => {
    setBusy(true);
    try {
      await patch(queueId, body);
      setMessage({ error: false, text: done });
      router.refresh();
    } catch (error) {
      setMessage({ error: true, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-3 text-sm">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const list = emails
            .split(/[\s,;]+/)
            .map((e) => e.trim())
            .filter(Boolean);
          void run({ assignees: list }, list.length ? `Assigned to ${list.join(", ")}.` : "Open to every reviewer.");
        }}
      >
        <label className="flex grow flex-col gap-1">
          Assigned to (emails; empty: every reviewer)
          <input
            className="rounded-md border border-slate-300 px-2 py-1.5"
            value={emails}
            onChange={(e) => setEmails(e.target.value)}
            data-testid="queue-assignees"
          />
        </label>
        <button type="submit" className={buttonClass("secondary")} disabled={busy}>
          Save assignees
        </button>
      </form>
      <label className="flex flex-col gap-1">
        Which item a reviewer gets next (claims already taken stay)
        <select
          className="w-fit rounded-md border border-slate-300 px-2 py-1.5"
          value={handOut}
          disabled={busy}
          onChange={(e) => {
            const order = e.target.value as QueueHandOut;
            void run(
              { handOut: order },
              order === "coverage"
                ? "Coverage first: the items with the fewest reviews first."
                : "Overlap first: the first item a reviewer has not reviewed.",
            );
          }}
          data-testid="queue-hand-out-choice"
        >
          <option value="overlap">overlap first: reviewers meet on the same items early</option>
          <option value="coverage">coverage first: every item gets one reviewer before any gets a second</option>
        </select>
      </label>
      <div>
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={busy}
          onClick={() => void run({ archived: !archived }, archived ? "Restored." : "Archived.")}
          data-testid="queue-archive"
        >
          {archived ? "Restore queue" : "Archive queue"}
        </button>
      </div>
      {message && (
        <p
          role="status"
          className={message.error ? "text-red-700" : "text-slate-600"}
          data-testid="queue-owner-message"
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
