import Link from "next/link";

/** A paged list's links under it: previous, where it is, next; nothing when the list fits one page. */
export function PageLinks({
  page,
  pageCount,
  href,
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav className="mt-3 flex gap-3 text-sm">
      {page > 1 && (
        <Link className="text-indigo-700 underline" href={href(page - 1)}>
          previous
        </Link>
      )}
      <span className="text-slate-500">
        page {page} of {pageCount}
      </span>
      {page < pageCount && (
        <Link className="text-indigo-700 underline" href={href(page + 1)}>
          next
        </Link>
      )}
    </nav>
  );
}
