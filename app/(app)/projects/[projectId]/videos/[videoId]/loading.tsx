/** Shown while a video page loads (from the list, or previous/next), so a click visibly does something. */
export default function VideoLoading() {
  return (
    <div className="flex flex-col gap-3" role="status" data-testid="page-loading">
      <p className="text-sm text-slate-500">Loading the video…</p>
      <div className="h-64 animate-pulse rounded-lg bg-slate-100" />
    </div>
  );
}
