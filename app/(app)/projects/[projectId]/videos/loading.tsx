/** Shown while the video list loads (a filter, a sort, another page), so a click visibly does something. */
export default function VideoListLoading() {
  return (
    <div className="flex flex-col gap-3" role="status" data-testid="page-loading">
      <p className="text-sm text-slate-500">Loading videos…</p>
      <div className="h-64 animate-pulse rounded-lg bg-slate-100" />
    </div>
  );
}
