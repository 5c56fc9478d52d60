/**
 * The timeline's keys. On the video page they act anywhere on the page (`keyScope: "page"`); embedded in the review
 * screen (`keyScope: "focus"`) they act only while focus is inside the span editor, and a key they act on is stopped
 * there, so the review screen's own keys (digits, j/k, y/n, a/A, m, g, presence letters, `[`/`]` and ←/→ between
 * items, Enter, ?) never see it and never clash: a reviewer clicks the timeline (or tabs into it) to mark, and Esc
 * gives the keys back to the screen. Shift+←/→ move the selected span's edge nearer the playhead by one frame.
 */
import { useEffect, useRef, type RefObject } from "react";
import { isTypingTarget } from "@/components/is-typing-target";

export type KeyScope = "page" | "focus";

/** Every timeline key with what it does: the help overlay's list (the review screen can add it to its own). */
export const TIMELINE_KEYS: readonly (readonly [string, string])[] = [
  ["[", "In point at the playhead"],
  ["]", "Out point at the playhead"],
  [", / .", "One frame back / forward (paused)"],
  ["Space", "Play / pause"],
  ["s", "Save the in–out span (or the frame at the playhead) under the chosen label"],
  ["t / T", "Next / previous label"],
  ["l", "Play the selected span (or the in–out stretch) in a loop"],
  ["Shift+← / →", "Move the selected span's edge nearer the playhead one frame earlier / later"],
  ["Delete", "Withdraw the selected span"],
  ["+ / −", "Zoom the timeline in / out (also Ctrl+wheel)"],
  ["Esc", "Clear the selection and the in and out points; stop the loop and playback"],
  ["?", "Show or hide these keys"],
];

/** The timeline's name for a key press (Shift+arrows get their own names), or null for keys it leaves alone. */
export function timelineKeyName(event: {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}): string | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (event.shiftKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) return `Shift${event.key}`;
  if (/^[[\],.stTl+=\-?_ ]$/.test(event.key)) return event.key;
  if (event.key === "Delete" || event.key === "Backspace" || event.key === "Escape") return event.key;
  return null;
}

/** Space on a button, link or the video's own controls does what it does there. */
function ownsSpace(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest("button, a, summary, video, [role='button']") !== null;
}

/**
 * Listens for the timeline's keys first (capturing on the window, before the review screen's queue, the video page's
 * list keys and the strip's frame stepping) and hands each to `onKey`; a key taken is prevented and stopped there.
 * Escape and `?` are handed on but not stopped: overlays close on Esc, and the page's own key list opens beside ours.
 */
export function useTimelineKeys(
  scope: KeyScope,
  root: RefObject<HTMLElement | null>,
  onKey: (name: string, event: KeyboardEvent) => boolean,
) {
  const handler = useRef(onKey);
  handler.current = onKey;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      if (scope === "focus" && !(root.current && root.current.contains(document.activeElement))) return;
      const name = timelineKeyName(event);
      if (name === null || (name === " " && ownsSpace(event.target))) return;
      if (scope === "focus" && name === "?") return;
      if (!handler.current(name, event)) return;
      if (name === "Escape") {
        if (scope === "focus") (document.activeElement as HTMLElement | null)?.blur?.();
        return;
      }
      if (name === "?") return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener("keydown", listener, true);
    return () => window.removeEventListener("keydown", listener, true);
  }, [scope, root]);
}
