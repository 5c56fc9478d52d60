/**
 * Submitting the item on screen and moving on from it. With the next item known (the nav names it, or a claim ahead
 * answered), the item is submitted in the background and the next one shown at once; otherwise the submission waits
 * for the server, which claims the next item and sends it back in the same answer. A blind item is first read back
 * with the judge's values. Keys typed after Enter wait for the item that comes next (the hold).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState, type Dispatch } from "react";
import { ApiError, postJson } from "@/lib/api-client";
import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { missingTargetsMessage } from "@/lib/queues/missing-targets";
import type { SubmitItemInput } from "@/lib/queues/submit-item.validation";
import { clearPresenceDraft } from "@/components/queues/presence-draft";
import type { usePresenceStep } from "@/components/queues/presence-step";
import type { ReviewAction, ReviewMessage } from "@/components/queues/review-state";
import {
  invalidateItems,
  preloadFrames,
  type Draft,
  type ItemView,
  type ScreenSupport,
  type TargetView,
} from "@/components/queues/review-types";

export interface ItemSubmitInput {
  data: ItemView;
  /** The targets asked (presence-first: only those of categories someone says are present). */
  targets: TargetView[];
  drafts: Record<string, Draft>;
  dispatch: Dispatch<ReviewAction>;
  support: ScreenSupport;
  presence: ReturnType<typeof usePresenceStep>;
  draftKey: string;
  aheadId: string | null;
  firstAhead: { current: Promise<string | null> | null };
  /** A localising item: why it cannot be submitted yet (a label marked present with no saved span), or null. */
  spansMissing?: () => string | null;
}

/**
 * Why the item cannot be submitted yet, or null: a required target without a value (the message jumps there), or a
 * localising item's label marked present with no saved span.
 */
function notReadyMessage(
  targets: TargetView[],
  drafts: Record<string, Draft>,
  spansMissing: ItemSubmitInput["spansMissing"],
): ReviewMessage | null {
  // Presence-first: only the targets of categories someone says are present are asked (and required).
  const missing = targets.filter((t) => t.required && drafts[t.key]!.value === null);
  if (missing.length > 0)
    return {
      text: missingTargetsMessage(
        missing.map((t) => t.label),
        targets.length,
      ),
      tone: "error",
      jumpTo: missing[0]!.key,
    };
  const spans = spansMissing?.() ?? null;
  return spans ? { text: spans, tone: "error" } : null;
}

/** The submission's judgments: each asked target with a value, its note, and the version of the value it replaces. */
function draftedJudgments(targets: TargetView[], drafts: Record<string, Draft>): SubmitItemInput["judgments"] {
  return targets
    .filter((t) => drafts[t.key]!.value !== null)
    .map((t) => ({
      target: t.key,
      value: drafts[t.key]!.value!,
      note: drafts[t.key]!.note.trim() || null,
      ...(drafts[t.key]!.accepted ? { acceptedJudge: true } : {}),
      expectedVersion: t.mine?.version,
    }));
}

/** Submitting the item on screen and moving on from it (see the file's comment). */
export function useItemSubmit(input: ItemSubmitInput) {
  const { data, targets, drafts, dispatch, support, presence } = input;
  const { pending, holdOn, navigate } = support;
  const queryClient = useQueryClient();
  const queueId = data.queue.id;
  const [busy, setBusy] = useState(false);
  const say = (message: ReviewMessage) => dispatch({ type: "message", message });

  /** Leaves this item: keys still queued apply to the one it goes to. */
  const leaveFor = (id: string) => {
    holdOn.current = data.item.id;
    navigate(id);
  };
  /** Stops holding keys for a next item that is not coming; says how many typed keys that drops. */
  const release = () => {
    holdOn.current = null;
    const dropped = pending.current.splice(0).length;
    return dropped ? ` (${dropped} key${dropped === 1 ? "" : "s"} typed after Enter not applied)` : "";
  };

  const goNext = async () => {
    const nextId = data.nav.nextItemId;
    // An item claimed ahead is a new one: it comes after this one is submitted.
    if (nextId && !(data.assignment.status !== "done" && support.isReserved(nextId))) return leaveFor(nextId);
    if (data.assignment.status !== "done")
      return say({ text: "Submit this item (Enter) before taking a new one.", tone: "info" });
    holdOn.current = data.item.id;
    try {
      // The server hands out the oldest open claim: wait until the submissions on their way have closed theirs.
      await support.settled();
      const { itemId } = await postJson<{ itemId: string | null }>(`/api/v1/queues/${queueId}/next`, {});
      await invalidateItems(queryClient, queueId);
      if (itemId && itemId !== data.item.id) return leaveFor(itemId);
      say({ text: "Nothing is left for you in this queue. Thank you!" + release(), tone: "info" });
    } catch (error) {
      say({
        text: (error instanceof Error ? error.message : "Could not take the next item.") + release(),
        tone: "error",
      });
    }
  };

  /** Without a next item shown at once: the submission is answered before the screen goes on (or says why not). */
  const submitAndWait = async (known: string | null, judgments: SubmitItemInput["judgments"]) => {
    setBusy(true);
    say({ text: "Submitting…", tone: "info" });
    try {
      // Without a known next item the server claims it and sends it back with the submission: one round trip. It
      // hands out the oldest open claim, so the submissions still on their way must have closed theirs first.
      await support.settled();
      const result = await postJson<{ next?: ItemView | null }>(
        `/api/v1/queues/${queueId}/items/${data.item.id}/submit${known ? "" : "?next=1"}`,
        { judgments, presence: presence.judgments() },
      );
      support.submitted(data.item.id);
      clearPresenceDraft(input.draftKey);
      await invalidateItems(queryClient, queueId);
      if (result.next) {
        queryClient.setQueryData(["queue-item", queueId, result.next.item.id], result.next);
        preloadFrames(result.next);
      }
      const nextId = known ?? result.next?.item.id ?? null;
      // Keys typed since Enter are for the next item: the reviewer has gone on, so go there without the reveal.
      // Keys typed from here on wait for the item read back (the hold ends there): they act on the reveal.
      if (nextId && data.blind && pending.current.length === 0) {
        return support.reveal(
          data.item.id,
          nextId,
          "Submitted: the judge's values are shown beside yours. Enter, → or Next item goes on (a score key starts the next item).",
        );
      }
      if (nextId) return leaveFor(nextId);
      // Read the item again: its header says submitted, and a blind queue now shows the judge's values.
      support.finished(data.item.id, "Submitted. Nothing is left for you in this queue. Thank you!" + release());
    } catch (error) {
      if (error instanceof ApiError && error.status === 409)
        await refetchAfterWrite(queryClient, ["queue-item", queueId, data.item.id]);
      say({ text: (error instanceof Error ? error.message : "Could not submit.") + release(), tone: "error" });
    } finally {
      setBusy(false);
    }
  };

  const submit = async () => {
    // A second Enter while this item is on its way out belongs to the next item (it waits in the queue).
    if (holdOn.current === data.item.id) return;
    const notReady = notReadyMessage(targets, drafts, input.spansMissing);
    if (notReady) return say(notReady);
    const judgments = draftedJudgments(targets, drafts);
    let known = data.nav.nextItemId ?? input.aheadId;
    holdOn.current = data.item.id;
    // The claim ahead is on its way: its answer (with the item) is nearer than a submission that claims.
    if (!known && data.assignment.status === "claimed" && input.firstAhead.current)
      known = await input.firstAhead.current;
    // The next item is known (and loaded, or on its way): show it now and let the submission go in the background.
    // Not from a blind item: its judge's values are shown once it is saved, before the reviewer goes on.
    if (known && !data.blind) {
      support.submitInBackground({
        itemId: data.item.id,
        label: `Your item ${data.nav.index + 1}`,
        drafts,
        judgments,
        presence: presence.judgments(),
        present: presence.answers(),
      });
      return leaveFor(known);
    }
    await submitAndWait(known, judgments);
  };

  return { submit, goNext, busy, leaveFor };
}
