"use client";

import { useEffect } from "react";

/**
 * The key list a screen's `?` shows, drawn over the page (fixed, centred) so it is in view wherever the
 * reviewer has scrolled. The screen keeps its own key handling: `?` toggles `open`, Esc or the close
 * button calls `onClose`. It is not modal: keys typed while it is shown still reach the screen.
 */
export function KeyListOverlay({
  open,
  onClose,
  keys,
  title = "Keyboard shortcuts",
  testId,
}: {
  open: boolean;
  onClose: () => void;
  keys: readonly (readonly [string, string])[];
  title?: string;
  testId?: string;
}) {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, onClose]);
  if (!open) return null;
  return (
    <div
      className="pointer-events-none fixed inset-0 z-50 flex items-start justify-center p-4 pt-[10vh]"
      data-testid="key-list-overlay"
    >
      <section
        role="dialog"
        aria-label={title}
        className="pointer-events-auto max-h-[80vh] w-full max-w-xl overflow-y-auto rounded-lg border border-slate-300 bg-white p-4 text-sm text-slate-700 shadow-2xl"
        data-testid={testId}
      >
        <div className="mb-2 flex items-center gap-2">
          <h2 className="font-semibold text-slate-900">{title}</h2>
          <span className="text-xs text-slate-500">
            <kbd className="font-mono">?</kbd> or <kbd className="font-mono">Esc</kbd> closes
          </span>
          <button
            type="button"
            onClick={onClose}
            className="ml-auto rounded px-2 text-slate-500 hover:bg-slate-100"
            aria-label="Close the key list"
          >
            ×
          </button>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          {keys.map(([key, what]) => (
            <div key={`${key}:${what}`} className="contents">
              <dt className="whitespace-nowrap font-mono font-semibold text-slate-800">{key}</dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
