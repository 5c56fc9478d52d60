/**
 * Submissions in the background on the review screen. When the next item is known, Enter shows it at once and the
 * item's submission goes on its way meanwhile; its drafts stay here until it is saved, so one that fails says so and
 * the item reopens with what the reviewer typed.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { postJson } from "@/lib/api-client";
import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { clearPresenceDraft } from "@/components/queues/presence-draft";
import type { BackgroundSubmission, UnsentWork } from "@/components/queues/review-types";

export interface SubmitFailure {
  itemId: string;
  label: string;
  message: string;
}

export interface SubmissionQueue {
  submitInBackground: (submission: BackgroundSubmission) => void;
  /** The item was submitted in the foreground: its failure and kept drafts are over. */
  submitted: (itemId: string) => void;
  /** Resolves once every submission sent in the background has been answered (saved or failed). */
  settled: () => Promise<unknown>;
  /** What the reviewer typed for an item whose submission is on its way or failed. */
  unsentOf: (itemId: string) => UnsentWork | null;
  failures: SubmitFailure[];
}

/** `draftKey`: where an item's unsubmitted presence toggles are kept in the browser (cleared once it is saved). */
export function useSubmissionQueue(queueId: string, draftKey: (itemId: string) => string): SubmissionQueue {
  const queryClient = useQueryClient();
  /** Drafts of items whose background submission is on its way or failed, by item. */
  const unsent = useRef(new Map<string, UnsentWork>());
  const inflight = useRef(new Set<Promise<unknown>>());
  const [failures, setFailures] = useState<SubmitFailure[]>([]);
  return {
    failures,
    unsentOf: (id) => unsent.current.get(id) ?? null,
    settled: () => Promise.allSettled([...inflight.current]),
    submitted: (id) => {
      unsent.current.delete(id);
      setFailures((f) => f.filter((x) => x.itemId !== id));
      void refetchAfterWrite(queryClient, ["queue-progress", queueId]);
    },
    submitInBackground: ({ itemId: sentId, label, drafts, judgments, presence, present }) => {
      const work = { drafts, present };
      unsent.current.set(sentId, work);
      setFailures((f) => f.filter((x) => x.itemId !== sentId));
      const sent = postJson(`/api/v1/queues/${queueId}/items/${sentId}/submit`, { judgments, presence })
        .then(() => {
          if (unsent.current.get(sentId) === work) unsent.current.delete(sentId);
          clearPresenceDraft(draftKey(sentId));
        })
        .catch((error: unknown) => {
          setFailures((f) => [
            ...f.filter((x) => x.itemId !== sentId),
            { itemId: sentId, label, message: error instanceof Error ? error.message : "Could not submit." },
          ]);
        })
        .finally(() => {
          inflight.current.delete(sent);
          // Its status, versions and the queue's counts changed (or, after a conflict, the saved values): read again when shown.
          void queryClient.invalidateQueries({ queryKey: ["queue-item", queueId, sentId], refetchType: "none" });
          void refetchAfterWrite(queryClient, ["queue-progress", queueId]);
        });
      inflight.current.add(sent);
    },
  };
}
