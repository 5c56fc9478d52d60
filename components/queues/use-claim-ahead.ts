/**
 * Claims ahead on the review screen. While the reviewer works on an item, the items after it are claimed and loaded
 * (payload and frames), so Enter shows the next one at once. A claim nobody opens is given back when the reviewer
 * leaves: another page, closing the tab, reloading, or the screen's own link to the queue overview.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { postJson } from "@/lib/api-client";
import { itemQuery, preloadFrames, type ItemView } from "@/components/queues/review-types";

export interface ClaimAhead {
  /**
   * The item claimed ahead after `after` (one request per item, shared: its answer carries the item's payload, which
   * goes into the cache with its frames preloaded); null when there is none.
   */
  aheadOf: (after: string) => Promise<string | null>;
  /** True for an item claimed ahead that the reviewer has not opened yet. */
  isReserved: (itemId: string) => boolean;
  /** Leaves the screen for another page once the claims ahead nobody opened are given back. */
  leaveTo: (href: string) => Promise<void>;
}

/** The screen's claims ahead; `shown`: the item on screen, which is opened (never given back). */
export function useClaimAhead(queueId: string, shown: string): ClaimAhead {
  const queryClient = useQueryClient();
  /** Items claimed ahead and not opened yet: released when the reviewer leaves. */
  const reservedIds = useRef(new Set<string>());
  /** Items shown on this screen: never released (a claim ahead can answer after its item was reached another way). */
  const openedIds = useRef(new Set<string>());
  /** The claim-ahead request made after each item, so every item asks once. */
  const aheadRequests = useRef(new Map<string, Promise<string | null>>());
  /** Set once the reviewer leaves: a claim ahead answered after that is given back at once. */
  const left = useRef(false);
  openedIds.current.add(shown);
  reservedIds.current.delete(shown);

  const releaseOne = useCallback(
    (id: string) =>
      fetch(`/api/v1/queues/${queueId}/items/${encodeURIComponent(id)}/release`, {
        method: "POST",
        keepalive: true,
        headers: { "content-type": "application/json" },
        body: "{}",
      }).then(
        () => undefined,
        () => undefined,
      ),
    [queueId],
  );
  /** Gives back the claims ahead nobody opened; resolves once the server has answered each release. */
  const releaseReserved = useCallback(() => {
    left.current = true;
    const ids = [...reservedIds.current];
    reservedIds.current.clear();
    return Promise.all(ids.map(releaseOne));
  }, [releaseOne]);
  // Leaving the screen (another page, closing the tab, reloading) gives back the claims ahead nobody opened.
  useEffect(() => {
    left.current = false;
    const onPageHide = () => void releaseReserved();
    // Back from the browser's page cache: the screen is in use again.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) left.current = false;
    };
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("pageshow", onPageShow);
      void releaseReserved();
    };
  }, [releaseReserved]);
  /**
   * The screen's own way out (the queue overview): the releases are answered before the overview is asked for, so it
   * does not count the claims given back as still in progress (so a release racing the page load is not lost).
   */
  const leaveTo = useCallback(
    async (href: string) => {
      // A claim ahead still on its way is waited for (briefly), so it is given back too.
      await Promise.race([
        Promise.allSettled([...aheadRequests.current.values()]),
        new Promise((resolve) => setTimeout(resolve, 1500)),
      ]);
      await Promise.race([releaseReserved(), new Promise((resolve) => setTimeout(resolve, 3000))]);
      window.location.assign(href);
    },
    [releaseReserved],
  );

  const aheadOf = (after: string) => {
    let request = aheadRequests.current.get(after);
    if (!request) {
      request = postJson<{ itemId: string | null; item?: ItemView | null }>(
        `/api/v1/queues/${queueId}/items/${encodeURIComponent(after)}/ahead?payload=1`,
        {},
      ).then(
        ({ itemId: aheadId, item: payload }) => {
          // None now (nothing left, or too many open claims): a later item may ask again.
          if (!aheadId) {
            aheadRequests.current.delete(after);
            return null;
          }
          // A claim nobody opens is released on leaving (at once when the reviewer has already left).
          if (!openedIds.current.has(aheadId)) {
            if (left.current) {
              void releaseOne(aheadId);
              return null;
            }
            reservedIds.current.add(aheadId);
          }
          if (payload && !queryClient.getQueryData(["queue-item", queueId, aheadId])) {
            queryClient.setQueryData(["queue-item", queueId, aheadId], payload);
            preloadFrames(payload);
          }
          return aheadId;
        },
        () => {
          // Without a claim ahead, Enter claims the next item as it submits.
          aheadRequests.current.delete(after);
          return null;
        },
      );
      aheadRequests.current.set(after, request);
    }
    return request;
  };
  return { aheadOf, isReserved: (id) => reservedIds.current.has(id), leaveTo };
}

/**
 * The item on screen's claims ahead: while the reviewer works on an unsubmitted item, the two items after it are
 * claimed ahead and loaded, frames included (two, so that an answer slower than the reviewer's typing is not waited
 * for); on an earlier item of theirs, the next one is loaded. Returns the item claimed ahead of this one (when the
 * payload predates that claim, its nav does not name it) and the first claim's request, which a submit may wait for.
 */
export function useItemClaimAhead(
  data: ItemView,
  aheadOf: ClaimAhead["aheadOf"],
): { aheadId: string | null; firstAhead: { current: Promise<string | null> | null } } {
  const queryClient = useQueryClient();
  const queueId = data.queue.id;
  const [aheadId, setAheadId] = useState<string | null>(null);
  const firstAhead = useRef<Promise<string | null> | null>(null);
  useEffect(() => {
    if (data.assignment.status !== "claimed") {
      const nextId = data.nav.nextItemId;
      if (nextId)
        void queryClient.prefetchQuery(itemQuery(queueId, nextId)).then(() => {
          const next = queryClient.getQueryData<ItemView>(["queue-item", queueId, nextId]);
          if (next) preloadFrames(next);
        });
      return;
    }
    let left = false;
    firstAhead.current = aheadOf(data.item.id);
    void firstAhead.current.then((next) => {
      if (!next) return;
      if (!left) setAheadId(next);
      return aheadOf(next);
    });
    return () => {
      left = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per item shown
  }, [data.item.id]);
  return { aheadId, firstAhead };
}
