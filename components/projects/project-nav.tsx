"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * The project's navigation bar: the links the layout chose for the member's role (lib/projects/project-nav.ts),
 * the current one marked, and the search box (a plain GET form, so it works before hydration).
 */
export function ProjectNav({ projectId, items }: { projectId: string; items: { id: string; label: string; href: string }[] }) {
  const pathname = usePathname();
  const overview = `/projects/${projectId}`;
  const isCurrent = (href: string) => (href === overview ? pathname === overview : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <nav aria-label="Project" className="min-w-0 flex-1" data-testid="project-nav">
        <ul className="flex flex-wrap gap-x-1 gap-y-1 text-sm">
          {items.map((item) => {
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
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-700 hover:bg-slate-100">
          Search
        </button>
      </form>
    </div>
  );
}
