"use client";

import { isTypingTarget } from "@/components/is-typing-target";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { postJson } from "@/lib/api-client";

const KEYS: [string, string][] = [
  ["s", "start reviewing (your open item, else a new one)"],
  ["Enter", "the focused button"],
  ["?", "show or hide these keys"],
];

/** "Start reviewing": claims (or resumes) the caller's next item and opens it. Enter or s from the keyboard. */
export function StartReviewing({ projectId, queueId }: { projectId: string; queueId: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [help, setHelp] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const start = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const { itemId } = await postJson<{ itemId: string | null }>(`/api/v1/queues/${queueId}/next`, {});
      if (itemId) router.push(`/projects/${projectId}/queues/${queueId}/items/${itemId}`);
      else setMessage("Nothing is left for you in this queue.");
    } catch (error) {
      setMessage(error instanceof Error ? error.message : "Could not start.");
    } finally {
      setBusy(false);
    }
  };
  const startRef = useRef(start);
  startRef.current = start;
  useEffect(() => {
    button.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (isTypingTarget(event.target)) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "s") {
        event.preventDefault();
        void startRef.current();
      } else if (event.key === "?") {
        event.preventDefault();
        setHelp((shown) => !shown);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-3">
        <button
          ref={button}
          type="button"
          onClick={() => void start()}
          disabled={busy}
          className={buttonClass()}
          data-testid="start-reviewing"
        >
          Start reviewing
        </button>
        <span className="text-xs text-slate-500">
          or press <kbd className="font-mono">s</kbd> (<kbd className="font-mono">Enter</kbd> on the focused button) ·{" "}
          <button type="button" className="underline" onClick={() => setHelp((shown) => !shown)}>
            keys (?)
          </button>
        </span>
      </div>
      {help && (
        <dl
          className="grid grid-cols-[6rem_1fr] gap-x-3 rounded-md border border-slate-200 bg-white p-2 text-xs"
          data-testid="queue-keys"
        >
          {KEYS.map(([key, what]) => (
            <div key={key} className="contents">
              <dt className="font-mono">{key}</dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      )}
      {message && (
        <p role="status" className="text-sm text-slate-600" data-testid="start-message">
          {message}
        </p>
      )}
    </div>
  );
}
