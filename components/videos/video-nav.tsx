"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { isTypingTarget } from "@/components/is-typing-target";

const KEYS: [string, string][] = [
  ["j", "next video in the list"],
  ["k", "previous video in the list"],
  ["?", "show or hide these keys"],
];

/** Previous/next video of the list the reviewer came from (its filter and order), with `j`/`k` and a loading state. */
export function VideoNav({
  previousHref,
  nextHref,
  position,
  total,
}: {
  previousHref: string | null;
  nextHref: string | null;
  position: number;
  total: number;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [help, setHelp] = useState(false);
  const [listening, setListening] = useState(false);

  useEffect(() => {
    function go(href: string | null, event: KeyboardEvent) {
      if (!href) return;
      event.preventDefault();
      startTransition(() => router.push(href));
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || isTypingTarget(event.target))
        return;
      if (event.key === "j") go(nextHref, event);
      else if (event.key === "k") go(previousHref, event);
      else if (event.key === "?") {
        event.preventDefault();
        setHelp((shown) => !shown);
      }
    }
    document.addEventListener("keydown", onKeyDown);
    setListening(true);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [nextHref, previousHref, router]);

  const link = (href: string | null, label: string, testId: string) =>
    href ? (
      <Link
        href={href}
        className="text-indigo-700 underline"
        data-testid={testId}
        onClick={(event) => {
          event.preventDefault();
          startTransition(() => router.push(href));
        }}
      >
        {label}
      </Link>
    ) : (
      <span className="text-slate-500" data-testid={`${testId}-none`}>
        {label}
      </span>
    );

  return (
    <div
      className="flex flex-wrap items-center gap-3 text-sm"
      data-testid="video-nav"
      data-keyboard={listening ? "on" : undefined}
    >
      {link(previousHref, "← previous (k)", "previous-video")}
      <span className="text-slate-500" data-testid="video-position">
        {position} of {total}
      </span>
      {link(nextHref, "next (j) →", "next-video")}
      {pending && (
        <span className="text-slate-500" role="status" data-testid="video-nav-loading">
          Loading…
        </span>
      )}
      <button type="button" className="text-xs text-slate-500 underline" onClick={() => setHelp((shown) => !shown)}>
        keys (?)
      </button>
      {help && (
        <dl
          className="grid w-full grid-cols-[6rem_1fr] gap-x-3 rounded-md border border-slate-200 bg-white p-2 text-xs"
          data-testid="video-keys"
        >
          {KEYS.map(([key, what]) => (
            <div key={key} className="contents">
              <dt className="font-mono">{key}</dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
