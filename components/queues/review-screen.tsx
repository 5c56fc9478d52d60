"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { apiFetch } from "@/lib/api-client";
import { presenceDraftKey } from "@/components/queues/presence-draft";
import { useDigitAdvances } from "@/components/queues/review-options";
import { ItemReview } from "@/components/queues/item-review";
import { itemQuery, type ScreenSupport } from "@/components/queues/review-types";
import { useClaimAhead } from "@/components/queues/use-claim-ahead";
import { useKeyQueue } from "@/components/queues/use-key-queue";
import { useSubmissionQueue, type SubmitFailure } from "@/components/queues/use-submission-queue";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import type { QueueAnswer } from "@/lib/queues/get-queue.types";

/** What the queue overview API says of the queue's progress, read again after each submission made in the background. */
type QueueProgressView = Pick<QueueAnswer, "progress" | "mine">;

/**
 * The keyboard-first review screen for one of the reviewer's queue items; `pipeline` is the queue's run's, whose task names every code.
 * It stays mounted from item to item (moving on rewrites the address with history.pushState), so no key is lost in a
 * transition: every key goes into one queue, and the item on screen applies them one render at a time; after Enter the
 * queue is held until the next item is on screen, and the keys typed meanwhile apply to it.
 * While the reviewer works on an item, the item after it is claimed ahead and loaded (payload and frames), so Enter shows
 * it at once and the submission goes in the background; one that fails says so here and keeps its typed values.
 */
export function ReviewScreen({
  projectId,
  queueId,
  itemId: pageItemId,
  pipeline,
  userId,
}: {
  projectId: string;
  queueId: string;
  itemId: string;
  pipeline: string | null;
  /** The reviewer: keys their drafts in the browser. */
  userId: string;
}) {
  const catalogue = useTaskCatalogue();
  const itemBase = `/projects/${projectId}/queues/${queueId}/items/`;
  const [itemId, pushItem] = useItemAddress(itemBase, pageItemId);
  const keys = useKeyQueue();
  const claims = useClaimAhead(queueId, itemId);
  const draftKey = (id: string) => presenceDraftKey(userId, queueId, id);
  const submissions = useSubmissionQueue(queueId, draftKey);
  const [guidelinesShown, setGuidelinesShown] = useState(true);
  const finishedItems = useFinishedItems(queueId, pushItem);
  const [digitAdvances, setDigitAdvances] = useDigitAdvances();
  const [reached, setReached] = useState(0);
  const reach = useCallback((position: number) => setReached((furthest) => Math.max(furthest, position)), []);
  const progress = useQuery({
    queryKey: ["queue-progress", queueId],
    queryFn: () => apiFetch<QueueProgressView>(`/api/v1/queues/${queueId}`),
    refetchOnWindowFocus: false,
  });

  const { navigate } = finishedItems;
  const support: ScreenSupport = {
    ...keys,
    ...claims,
    ...submissions,
    ...finishedItems,
    guidelinesShown,
    toggleGuidelines: () => setGuidelinesShown((shown) => !shown),
    draftKey,
    digitAdvances,
    setDigitAdvances,
    reached,
    reach,
    userId,
  };

  const item = useQuery({
    ...itemQuery(queueId, itemId),
    // A refetch would reset what the reviewer is typing; the item is reloaded after submitting.
    refetchOnWindowFocus: false,
  });
  const failed = <SubmitFailures failures={submissions.failures} shown={itemId} navigate={navigate} />;
  // Cached data of an item opened again (← to an earlier item) can be stale: its previous/next links and
  // status predate later submits, so keys acted on it would go to the wrong item. Wait for the refetch.
  if (item.isPending || item.isRefetching)
    return (
      <>
        {failed}
        <p className="text-sm text-slate-500" data-testid="review-loading">
          Loading the item…
        </p>
      </>
    );
  if (item.error)
    return (
      <>
        {failed}
        <p role="alert" className="text-sm text-red-700" data-testid="review-error">
          {item.error.message}
        </p>
      </>
    );
  const live =
    progress.data && progress.dataUpdatedAt > item.dataUpdatedAt
      ? { items: progress.data.progress.items, complete: progress.data.progress.complete, mine: progress.data.mine }
      : null;
  return (
    <>
      {failed}
      <ItemReview
        key={`${itemId}:${item.dataUpdatedAt}`}
        projectId={projectId}
        data={item.data}
        task={catalogue.findTask(pipeline)}
        support={support}
        restored={submissions.unsentOf(itemId)}
        liveProgress={live}
      />
    </>
  );
}

/**
 * The notes of the items just submitted and the reveals of blind ones (each with the item to go on to), and moving on
 * to another item, which ends every reveal.
 */
function useFinishedItems(
  queueId: string,
  pushItem: (itemId: string) => void,
): Pick<ScreenSupport, "navigate" | "finished" | "finishedText" | "reveal" | "revealedNext"> {
  const queryClient = useQueryClient();
  const [finishedNotes, setFinishedNotes] = useState<Record<string, string>>({});
  /** Blind items submitted and shown with the judge's values, each with the item to go on to. */
  const [reveals, setReveals] = useState<Record<string, string>>({});
  const navigate = useCallback(
    (id: string) => {
      // Leaving a revealed item ends its reveal: opened again later, it is an ordinary submitted item.
      if (Object.keys(reveals).length > 0) {
        setReveals({});
        setFinishedNotes((notes) => Object.fromEntries(Object.entries(notes).filter(([noted]) => !(noted in reveals))));
      }
      pushItem(id);
    },
    [pushItem, reveals],
  );
  return {
    navigate,
    finished: (id, text) => {
      setFinishedNotes((notes) => ({ ...notes, [id]: text }));
      void refetchAfterWrite(queryClient, ["queue-item", queueId, id]);
    },
    finishedText: (id) => finishedNotes[id] ?? null,
    reveal: (id, nextId, text) => {
      setReveals((shown) => ({ ...shown, [id]: nextId }));
      setFinishedNotes((notes) => ({ ...notes, [id]: text }));
      void refetchAfterWrite(queryClient, ["queue-item", queueId, id]);
    },
    revealedNext: (id) => reveals[id] ?? null,
  };
}

/**
 * The item on screen and the way to move to another. The item changes at once when the screen moves on (an urgent
 * update), not when the router has caught up with the new address (a transition, which React may render and throw
 * away): the items pushed and not yet addressed lead; back / forward (an address that was not pushed) drops them.
 */
function useItemAddress(itemBase: string, pageItemId: string): [string, (itemId: string) => void] {
  const pathname = usePathname();
  const addressed = pathname?.startsWith(itemBase)
    ? decodeURIComponent(pathname.slice(itemBase.length).split("/")[0]!)
    : pageItemId;
  const [pushed, setPushed] = useState<string[]>([]);
  useEffect(() => {
    setPushed((ids) => {
      const at = ids.indexOf(addressed);
      return at >= 0 ? (at === ids.length - 1 ? [] : ids.slice(at + 1)) : ids.length ? [] : ids;
    });
  }, [addressed]);
  const push = useCallback(
    (id: string) => {
      setPushed((ids) => [...ids, id]);
      window.history.pushState(null, "", itemBase + encodeURIComponent(id));
    },
    [itemBase],
  );
  return [pushed.at(-1) ?? addressed, push];
}

/** Submissions made in the background that failed: each says so, keeps the values, and offers a way back to its item. */
function SubmitFailures({
  failures,
  shown,
  navigate,
}: {
  failures: SubmitFailure[];
  shown: string;
  navigate: (itemId: string) => void;
}) {
  if (failures.length === 0) return null;
  return (
    <div className="mb-3 flex flex-col gap-1" data-testid="submit-failures">
      {failures.map((f) => (
        <p
          key={f.itemId}
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-800"
          data-testid="submit-failed"
        >
          {f.label} was not submitted: {f.message} Your values are kept.{" "}
          {f.itemId !== shown && (
            <button type="button" className="underline" onClick={() => navigate(f.itemId)}>
              Go back to it
            </button>
          )}
        </p>
      ))}
    </div>
  );
}
