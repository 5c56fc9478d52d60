import Link from "next/link";
import { Suspense, type ReactNode } from "react";
import { NavigationPending } from "@/components/navigation-pending";
import { requirePageActor } from "@/app/_server/actor";
import { signOutAction } from "@/app/sign-in/actions";
import { ThemeToggle } from "@/components/theme-toggle";
import { parseTheme, THEME_COOKIE } from "@/lib/theme/theme";
import { cookies } from "next/headers";

export const dynamic = "force-dynamic";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const actor = await requirePageActor();
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <div className="min-h-screen">
      <Suspense fallback={null}>
        <NavigationPending />
      </Suspense>
      {/* The header's links are not prefetched, for the reason ProjectNav's are not. */}
      <header className="border-b border-slate-200 bg-white">
        <nav className="mx-auto flex max-w-6xl items-center gap-5 px-4 py-3 text-sm">
          <Link prefetch={false} href="/" className="text-base font-semibold tracking-tight text-slate-900">
            FrameJury
          </Link>
          <Link prefetch={false} href="/" className="text-slate-600 hover:text-slate-900">
            Projects
          </Link>
          <Link prefetch={false} href="/settings/api-keys" className="text-slate-600 hover:text-slate-900">
            API keys
          </Link>
          <Link prefetch={false} href="/docs/api" className="text-slate-600 hover:text-slate-900">
            API docs
          </Link>
          <Link prefetch={false} href="/settings/password" className="text-slate-600 hover:text-slate-900">
            Password
          </Link>
          {actor.isAdmin && (
            <Link prefetch={false} href="/admin/users" className="text-slate-600 hover:text-slate-900">
              Users
            </Link>
          )}
          <span className="ml-auto text-slate-500" data-testid="current-user">
            {actor.email}
            {actor.isAdmin && (
              <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">admin</span>
            )}
          </span>
          <ThemeToggle initial={theme} />
          <form action={signOutAction}>
            <button type="submit" className="text-slate-600 hover:text-slate-900">
              Sign out
            </button>
          </form>
        </nav>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">{children}</main>
    </div>
  );
}
