/**
 * The review screen's key queue. The screen stays mounted from item to item and takes every key it acts on into one
 * queue, even while a submission is on its way or the next item is loading; the item on screen applies the queued keys
 * one render at a time, so each key sees the state the one before left. While an item is on its way out (`holdOn`),
 * the keys wait and are replayed on the item that comes next.
 */
import { useEffect, useRef, useState, type RefObject } from "react";
import { isTypingTarget } from "@/components/is-typing-target";
import { PRESENCE_KEY_SET } from "@/lib/queues/presence-keys";
import type { PendingKey } from "@/components/queues/review-types";

/** Keys the review screen acts on: they are taken (and queued) even while the next item is still on its way. */
const REVIEW_KEY = /^(?:[0-9jkyanmcwgA?[\] ]|Enter|Escape|Arrow(?:Up|Down|Left|Right))$/;

export interface KeyQueue {
  pending: RefObject<PendingKey[]>;
  /** The item whose submission or departure is under way: queued keys wait for the item after it. */
  holdOn: RefObject<string | null>;
}

/** The screen's queue: a key press outside a text field is taken (its default prevented) and queued. */
export function useKeyQueue(): KeyQueue {
  const pending = useRef<PendingKey[]>([]);
  const holdOn = useRef<string | null>(null);
  const [, setTaken] = useState(0);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTypingTarget(event.target)) {
        if (event.key === "Escape") {
          event.preventDefault();
          (event.target as HTMLElement).blur();
          document.querySelector<HTMLElement>('[data-testid="review-screen"]')?.focus();
        }
        return;
      }
      if (
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        !(REVIEW_KEY.test(event.key) || PRESENCE_KEY_SET.has(event.key) || event.key === "p")
      )
        return;
      event.preventDefault();
      pending.current.push({ key: event.key, timeStamp: event.timeStamp || performance.now() });
      setTaken((n) => n + 1);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return { pending, holdOn };
}

/**
 * The item on screen's side of the queue: one queued key per render, so each key sees the state the previous one left
 * (focus, drafts, digit chain); none while this item is on its way out, as those keys are for the next item.
 * `revealing`: a blind item read back after its submit, on which the keys held since then act.
 * Returns `press`, which queues a key for a button that does what the key does (and for the screen's own keys).
 */
export function useQueuedKeys(
  { pending, holdOn }: KeyQueue,
  itemId: string,
  revealing: boolean,
  apply: (key: PendingKey) => void,
): (key: string, timeStamp?: number) => void {
  const [, setApplied] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs after every render on purpose: each render applies the next queued key
  useEffect(() => {
    if (holdOn.current === itemId) {
      if (!revealing) return;
      holdOn.current = null;
    }
    if (holdOn.current !== null) holdOn.current = null;
    const key = pending.current.shift();
    if (!key) return;
    apply(key);
    setApplied((n) => n + 1);
  });
  return (key: string, timeStamp = performance.now()) => {
    pending.current.push({ key, timeStamp });
    setApplied((n) => n + 1);
  };
}
