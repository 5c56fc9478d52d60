"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { isTypingTarget } from "@/components/is-typing-target";

/** What the list's `?` shows, in the table and the grid alike. */
export const LIST_KEYS: [string, string][] = [
  ["j / ↓", "next video"],
  ["k / ↑", "previous video"],
  ["Enter / o", "open the video (its page follows this list with j / k)"],
  ["] / [", "next / previous page"],
  ["/", "search prompts (Esc leaves the field)"],
  ["?", "show or hide these keys"],
];

/**
 * The video list's keyboard, shared by the table and the grid: a cursor that j/↓ and k/↑ move, Enter or o opens
 * the video under it, ] and [ go to the next and previous page, / focuses the prompt search, ? shows the keys.
 * Nothing fires while typing.
 */
export function useVideoListKeys<E extends HTMLElement>({
  rows,
  nextHref,
  prevHref,
  searchInputId,
}: {
  rows: readonly { href: string }[];
  nextHref: string | null;
  prevHref: string | null;
  searchInputId: string;
}) {
  const router = useRouter();
  const [cursor, setCursor] = useState(0);
  // Set once the shortcuts listen (after hydration), for tests and for the hint's styling.
  const [listening, setListening] = useState(false);
  const [help, setHelp] = useState(false);
  const closeHelp = useCallback(() => setHelp(false), []);
  const itemRefs = useRef<(E | null)[]>([]);

  // Only a key that moved the cursor scrolls its row into view: on load the page stays at its top, with the
  // navigation in view, and a click on a row is already where the pointer is.
  const keyMoved = useRef(false);
  useEffect(() => {
    if (!keyMoved.current) return;
    keyMoved.current = false;
    itemRefs.current[cursor]?.scrollIntoView?.({ block: "nearest" });
  }, [cursor]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
      if (isTypingTarget(event.target)) {
        if (event.key === "Escape" && event.target instanceof HTMLElement) event.target.blur();
        return;
      }
      const last = rows.length - 1;
      switch (event.key) {
        case "j":
        case "ArrowDown":
          if (last < 0) return;
          event.preventDefault();
          keyMoved.current = true;
          setCursor((c) => Math.min(last, c + 1));
          return;
        case "k":
        case "ArrowUp":
          if (last < 0) return;
          event.preventDefault();
          keyMoved.current = true;
          setCursor((c) => Math.max(0, c - 1));
          return;
        case "Enter":
        case "o": {
          // Enter on a focused control is its own (a link, a button, the navigation's More tasks disclosure).
          if (
            event.key === "Enter" &&
            event.target instanceof HTMLElement &&
            event.target.closest("a, button, summary, select, [role='button']")
          )
            return;
          const row = rows[cursor];
          if (!row) return;
          event.preventDefault();
          router.push(row.href);
          return;
        }
        case "]":
          if (!nextHref) return;
          event.preventDefault();
          router.push(nextHref);
          return;
        case "[":
          if (!prevHref) return;
          event.preventDefault();
          router.push(prevHref);
          return;
        case "?":
          event.preventDefault();
          setHelp((shown) => !shown);
          return;
        case "/": {
          const input = document.getElementById(searchInputId);
          if (!(input instanceof HTMLInputElement)) return;
          event.preventDefault();
          input.focus();
          input.select();
          return;
        }
      }
    }
    document.addEventListener("keydown", onKeyDown);
    setListening(true);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [rows, cursor, nextHref, prevHref, router, searchInputId]);

  return { cursor, setCursor, listening, help, closeHelp, itemRefs };
}
