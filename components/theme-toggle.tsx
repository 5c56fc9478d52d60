"use client";

import { useEffect, useRef, useState } from "react";
import { parseTheme, THEME_COOKIE, THEMES, themeClass, type Theme } from "@/lib/theme/theme";

const LABELS: Record<Theme, string> = { system: "Theme: system", light: "Theme: light", dark: "Theme: dark" };

/**
 * System, light or dark. The choice is a cookie (the server sets <html>'s class from it on the next
 * page, so nothing flashes) and is applied to this page at once. A choice made before hydration (the
 * server's <select> works without React) is applied once React takes over, so it is not lost.
 */
export function ThemeToggle({ initial }: { initial: Theme }) {
  const [theme, setTheme] = useState<Theme>(initial);
  const [ready, setReady] = useState(false);
  const select = useRef<HTMLSelectElement>(null);
  const choose = (next: Theme) => {
    setTheme(next);
    document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=${60 * 60 * 24 * 365}; samesite=lax`;
    const root = document.documentElement;
    root.classList.remove("light", "dark");
    const cls = themeClass(next);
    if (cls) root.classList.add(cls);
  };
  useEffect(() => {
    const chosenEarly = parseTheme(select.current?.value);
    if (chosenEarly !== initial) choose(chosenEarly);
    setReady(true);
    // Once, on hydration: later choices go through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <select
      ref={select}
      data-ready={ready ? "true" : "false"}
      value={theme}
      onChange={(e) => choose(e.target.value as Theme)}
      aria-label="Colour theme"
      className="rounded-md border border-slate-300 bg-white px-1.5 py-1 text-xs text-slate-700"
      data-testid="theme-toggle"
    >
      {THEMES.map((t) => (
        <option key={t} value={t}>
          {LABELS[t]}
        </option>
      ))}
    </select>
  );
}
