import { useCallback, useState } from "react";

/**
 * The review screen's options, one per browser (localStorage), the same for every queue: whether a digit (or a
 * click on a value) moves the focus on to the next target. On unless the reviewer turned it off.
 */
export const DIGIT_ADVANCES_KEY = "framejury:review:digit-advances";

function readDigitAdvances(): boolean {
  try {
    return window.localStorage.getItem(DIGIT_ADVANCES_KEY) !== "off";
  } catch {
    return true;
  }
}

export function useDigitAdvances(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => (typeof window === "undefined" ? true : readDigitAdvances()));
  const set = useCallback((next: boolean) => {
    setOn(next);
    try {
      window.localStorage.setItem(DIGIT_ADVANCES_KEY, next ? "on" : "off");
    } catch {
      // Storage blocked (private mode): the choice holds for this page.
    }
  }, []);
  return [on, set];
}
