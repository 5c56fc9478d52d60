/**
 * The video list's line after a video page's *Delete video*: the deletion happened on the page left
 * behind, so the list says it was done. Only a count travels in the address (`deleted=1`), never a
 * name a link could set.
 */
export function DeletedNotice({ deleted }: { deleted: string | undefined }) {
  const count = deleted !== undefined && /^\d{1,6}$/.test(deleted) ? Number(deleted) : 0;
  if (count < 1) return null;
  return (
    <p
      role="status"
      className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
      data-testid="video-deleted-notice"
    >
      Deleted {count.toLocaleString("en")} video{count === 1 ? "" : "s"} with {count === 1 ? "its" : "their"} frames,
      judgments and results.
    </p>
  );
}

/** `href` with `deleted=<count>` added, for the list to say so. */
export function withDeletedNotice(href: string, count: number): string {
  return `${href}${href.includes("?") ? "&" : "?"}deleted=${count}`;
}
