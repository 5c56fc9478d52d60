"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef } from "react";

type NavLink = { id: string; label: string; href: string };

/**
 * The project's navigation bar: the links the layout chose for the member's role (lib/projects/project-nav.ts),
 * the current one marked, and the search box (a plain GET form, so it works before hydration). The links of
 * tasks the project does not use sit under one "More tasks" menu (a native disclosure: Enter or Space opens
 * it, Escape closes it); the page on screen is always in the bar, even when its task is one of those.
 */
export function ProjectNav({
  projectId,
  items,
  moreTasks = [],
}: {
  projectId: string;
  items: NavLink[];
  moreTasks?: NavLink[];
}) {
  const pathname = usePathname();
  const overview = `/projects/${projectId}`;
  const isCurrent = (href: string) =>
    href === overview ? pathname === overview : pathname === href || pathname.startsWith(`${href}/`);
  const promoted = moreTasks.filter((item) => isCurrent(item.href));
  const inMenu = moreTasks.filter((item) => !isCurrent(item.href));
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <nav aria-label="Project" className="min-w-0 flex-1" data-testid="project-nav">
        <ul className="flex flex-wrap gap-x-1 gap-y-1 text-sm">
          {[...items, ...promoted].map((item) => {
            const current = isCurrent(item.href);
            return (
              <li key={item.id}>
                <Link
                  // Not prefetched: every page is rendered per request with no loading.tsx to stop at, so a prefetch
                  // brings no page data, yet costs the server a render of the layouts, session check included, for
                  // each of the bar's ~25 links on every page load (the page crawl ran a sixth faster without them).
                  // A click shows NavigationPending's bar until the page arrives.
                  prefetch={false}
                  href={item.href}
                  aria-current={current ? "page" : undefined}
                  data-testid={`project-nav-${item.id}`}
                  className={`block rounded-md px-2.5 py-1.5 ${current ? "bg-indigo-50 font-medium text-indigo-800" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"}`}
                >
                  {item.label}
                </Link>
              </li>
            );
          })}
          {inMenu.length > 0 && (
            // Keyed by the page, so the menu is closed again after it took you somewhere.
            <MoreTasksMenu key={pathname} items={inMenu} />
          )}
        </ul>
      </nav>
      <form role="search" method="get" action={`/projects/${projectId}/search`} className="flex items-center gap-1">
        <input
          type="search"
          name="q"
          required
          maxLength={200}
          placeholder="Search videos, prompts, runs, queues"
          aria-label="Search videos, prompts, runs and queues"
          className="w-72 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 placeholder:text-slate-500"
          data-testid="project-search-input"
        />
        <button
          type="submit"
          className="rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
        >
          Search
        </button>
      </form>
    </div>
  );
}

function MoreTasksMenu({ items }: { items: NavLink[] }) {
  const menu = useRef<HTMLDetailsElement>(null);
  return (
    <li>
      <details
        ref={menu}
        className="relative"
        data-testid="project-nav-more"
        onKeyDown={(event) => {
          if (event.key !== "Escape" || !menu.current?.open) return;
          menu.current.open = false;
          menu.current.querySelector("summary")?.focus();
        }}
      >
        <summary
          className="block cursor-pointer list-none rounded-md px-2.5 py-1.5 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          data-testid="project-nav-more-button"
        >
          More tasks <span aria-hidden="true">▾</span>
        </summary>
        <ul
          className="absolute left-0 z-30 mt-1 flex min-w-[12rem] flex-col rounded-md border border-slate-200 bg-white py-1 shadow-lg"
          aria-label="More tasks"
        >
          {items.map((item) => (
            <li key={item.id}>
              <Link
                prefetch={false}
                href={item.href}
                data-testid={`project-nav-${item.id}`}
                className="block px-3 py-1.5 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </details>
    </li>
  );
}
