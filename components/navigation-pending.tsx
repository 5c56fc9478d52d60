"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";

/** A navigation that has not arrived after this long is taken as failed or abandoned: the indicator goes away. */
const GIVE_UP_MS = 30_000;

/**
 * The loading state of every navigation by link: from the click on an in-app link until the new address is shown, a
 * bar at the top of the window (and `aria-busy` on the page). Done here, in the client, rather than with route-level
 * `loading.tsx` files: those make Next.js stream a 200 shell before a page can answer 404 to someone who is not a member.
 */
export function NavigationPending() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pendingSince, setPendingSince] = useState<number | null>(null);

  useEffect(() => {
    setPendingSince(null);
  }, [pathname, searchParams]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[href]") : null;
      if (!anchor || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
      const to = new URL(anchor.href, window.location.href);
      const here = new URL(window.location.href);
      if (to.origin !== here.origin || to.pathname.startsWith("/api/")) return;
      // Same page and query (a fragment link, or the page already shown): nothing is loading.
      if (to.pathname === here.pathname && to.search === here.search) return;
      setPendingSince(Date.now());
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, []);

  useEffect(() => {
    if (pendingSince === null) return;
    document.querySelector("main")?.setAttribute("aria-busy", "true");
    const giveUp = window.setTimeout(() => setPendingSince(null), GIVE_UP_MS);
    return () => {
      window.clearTimeout(giveUp);
      document.querySelector("main")?.removeAttribute("aria-busy");
    };
  }, [pendingSince]);

  if (pendingSince === null) return null;
  return (
    <div role="status" aria-live="polite" className="fixed inset-x-0 top-0 z-50" data-testid="navigation-pending">
      <div className="h-1 w-full animate-pulse bg-indigo-500" />
      <span className="sr-only">Loading the page…</span>
    </div>
  );
}
