/**
 * The curation screen's items: loading one (from a cache, the next one prefetched), moving between them and saving a
 * decision, with the 409 of a save another tab made first kept as a conflict.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { isTypingTarget } from "@/components/is-typing-target";
import { ApiError, apiFetch } from "@/lib/api-client";
import type { Conflict, Current, ItemData } from "@/components/tasks/construction/curation-parts";
import type { NextCurationItemAnswer } from "@/lib/tasks/construction/curation-queue-next.types";

const itemUrl = (queueId: string, itemId: string) =>
  `/api/v1/curation-queues/${queueId}/items/${encodeURIComponent(itemId)}`;

export function useCurationItems(projectId: string, queueId: string, startItemId: string | null) {
  const cache = useRef(new Map<string, ItemData>());
  const [itemId, setItemId] = useState<string | null>(startItemId);
  const [data, setData] = useState<ItemData | null>(null);
  const [nextId, setNextId] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(true);
  const [mode, setMode] = useState<"view" | "edit" | "reject">("view");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  /** Bumped to load the current item again from the server (after a 409, keeping the saved decision). */
  const [reloads, setReloads] = useState(0);

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
      const next = await apiFetch<NextCurationItemAnswer>(
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
      const next = await apiFetch<NextCurationItemAnswer>(`/api/v1/curation-queues/${queueId}/next`).catch(
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

  /** Forgets the current item and loads it again from the server (keeping the decision saved elsewhere). */
  const reload = useCallback((id: string) => {
    cache.current.delete(id);
    setConflict(null);
    setReloads((n) => n + 1);
  }, []);

  return {
    ...{ data, setData, done, setDone, busy, setBusy, mode, setMode, error, setError, notice, setNotice },
    ...{ conflict, setConflict, setItemId, nextId, cache, goTo, prefetchNext, reload },
  };
}

type CurationItems = ReturnType<typeof useCurationItems>;

/**
 * Saves the curator's decision on the current item and moves to the next one; a 409 (the decision changed
 * elsewhere) becomes a conflict the curator settles.
 */
export function useCurationSave(items: CurationItems) {
  const { data, nextId, prefetchNext, cache, setBusy, setError, setConflict, setMode, setNotice } = items;
  const { setItemId, setData, setDone } = items;
  return useCallback(
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
    [
      data,
      nextId,
      prefetchNext,
      cache,
      setBusy,
      setError,
      setConflict,
      setMode,
      setNotice,
      setItemId,
      setData,
      setDone,
    ],
  );
}

/**
 * The screen's keys (a, e, r, j/k, 1–9, ?) while it shows a question; keys typed while an item loads are kept
 * and played in order once it is there.
 */
export function useCurationKeys(
  items: CurationItems,
  actions: {
    save: ReturnType<typeof useCurationSave>;
    startEdit: () => void;
    startReject: () => void;
    toggleHelp: () => void;
    player: RefObject<HTMLVideoElement | null>;
  },
) {
  const { data, busy, done, mode, conflict, goTo } = items;
  const { save, startEdit, startReject, toggleHelp, player } = actions;
  const queuedKeys = useRef<KeyboardEvent[]>([]);
  const handleKey = useCallback(
    (event: KeyboardEvent) => {
      if (!data) return;
      const key = event.key;
      if (key === "?") return toggleHelp();
      if (key === "a") return void save({ decision: "accept", edits: {} }, data.mine?.version);
      if (key === "e") {
        event.preventDefault();
        return startEdit();
      }
      if (key === "r") {
        event.preventDefault();
        return startReject();
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
    [data, goTo, save, startEdit, toggleHelp, startReject, player],
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
}
