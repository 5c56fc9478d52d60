interface Progress {
  items: number;
  complete: number;
  reviewers: { reviewerId: string; email: string; done: number; claimed: number }[];
}

/** A queue's progress bar (items complete: N reviewers submitted) and, optionally, per reviewer. */
export function QueueProgress({
  progress,
  reviewersPerItem,
  perReviewer = false,
}: {
  progress: Progress;
  reviewersPerItem: number;
  perReviewer?: boolean;
}) {
  const percent = progress.items ? Math.round((100 * progress.complete) / progress.items) : 0;
  const slots = progress.items * reviewersPerItem;
  const submitted = progress.reviewers.reduce((sum, r) => sum + r.done, 0);
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="queue-progress">
      <div className="flex items-center gap-3">
        <div
          className="h-2.5 w-56 overflow-hidden rounded bg-slate-200"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={progress.items}
          aria-valuenow={progress.complete}
          aria-label="items complete"
        >
          <div className="h-full bg-emerald-500" style={{ width: `${percent}%` }} />
        </div>
        <span data-testid="queue-complete">
          {progress.complete} / {progress.items} items complete
        </span>
        <span className="text-xs text-slate-500">
          {submitted} of {slots} reviews submitted
        </span>
      </div>
      {perReviewer &&
        (progress.reviewers.length === 0 ? (
          <p className="text-xs text-slate-500">Nobody has started yet.</p>
        ) : (
          <table className="text-left text-xs" data-testid="reviewer-progress">
            <thead className="text-slate-500">
              <tr>
                <th className="pr-4 font-normal">reviewer</th>
                <th className="pr-4 font-normal">submitted</th>
                <th className="font-normal">in progress</th>
              </tr>
            </thead>
            <tbody>
              {progress.reviewers.map((r) => (
                <tr key={r.reviewerId}>
                  <td className="pr-4">{r.email}</td>
                  <td className="pr-4">
                    <span className="mr-2 inline-block h-1.5 w-24 overflow-hidden rounded bg-slate-200 align-middle">
                      <span
                        className="block h-full bg-indigo-500"
                        style={{ width: `${progress.items ? Math.round((100 * r.done) / progress.items) : 0}%` }}
                      />
                    </span>
                    {r.done}
                  </td>
                  <td>{r.claimed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </div>
  );
}
