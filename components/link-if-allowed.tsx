import Link from "next/link";
import type { ReactNode } from "react";

/**
 * A link to a page only some roles may open (Import, Extract pending): a link for them, plain text for the
 * others, so no member follows a link into a 403.
 */
export function LinkIfAllowed({ allowed, href, children }: { allowed: boolean; href: string; children: ReactNode }) {
  if (!allowed) return <>{children}</>;
  return (
    <Link className="text-indigo-700 underline" href={href}>
      {children}
    </Link>
  );
}
