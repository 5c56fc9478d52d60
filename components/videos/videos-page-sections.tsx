/** The Videos page's sections: its title bar, the filter form, the view toggle, the sortable table head, the list (table or grid) and the page links. */
import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { EmptyState } from "@/components/empty-state";
import { VideoFilterFields } from "@/components/videos/video-filter-fields";
import { VideoGrid } from "@/components/videos/video-grid";
import { VideoListTable } from "@/components/videos/video-list-table";
import { VideoSelectionProvider } from "@/components/videos/video-selection";
import type { VideosPageData } from "@/components/videos/videos-page-data";
import { LIST_COUNT_CAP } from "@/lib/videos/browse-videos";
import type { VideoSort } from "@/lib/videos/video-filter";

export const SEARCH_INPUT_ID = "video-prompt-filter";

export const when = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

export function VideosTitleBar({
  projectId,
  data: { result, filterParams },
  canManageQueues,
}: {
  projectId: string;
  data: VideosPageData;
  canManageQueues: boolean;
}) {
  return (
    <div className="flex flex-wrap items-baseline gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">Videos</h1>
      {result && (
        <span
          className="text-sm text-slate-500"
          data-testid="video-total"
          title={
            result.totalExact
              ? undefined
              : `Counted up to ${LIST_COUNT_CAP.toLocaleString("en")}: an exact count of a large project would read every matching video.`
          }
        >
          {result.total.toLocaleString("en")}
          {result.totalExact ? "" : "+"} matching{result.totalExact ? "" : " (count capped)"}
        </span>
      )}
      {canManageQueues && (
        <Link
          href={`/projects/${projectId}/queues/new${filterParams.size > 0 ? `?${filterParams.toString()}` : ""}`}
          className="text-sm text-indigo-700 underline"
          data-testid="create-queue-link"
        >
          Create review queue from this filter
        </Link>
      )}
      <Link href={`/projects/${projectId}`} className="ml-auto text-sm text-indigo-700 underline">
        project
      </Link>
    </div>
  );
}

export function VideosFilterForm({ data: { raw, base, options, runLabels, task } }: { data: VideosPageData }) {
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm"
      method="get"
      action={base}
      data-testid="video-filter-form"
    >
      <VideoFilterFields
        values={raw}
        dimensions={options.dimensions}
        models={options.models}
        runs={options.runs.map((run) => ({
          id: run.id,
          label: `${runLabels.get(run.id) ?? run.name} · ${run.status}${run.simulated ? " · simulated" : ""}`,
        }))}
        noRunLabel={`latest${options.runs[0] ? ` (${when(options.runs[0].createdAt)})` : ""}`}
        searchInputId={SEARCH_INPUT_ID}
        task={task}
      />
      {raw.sort && <input type="hidden" name="sort" value={raw.sort} />}
      {raw.dir && <input type="hidden" name="dir" value={raw.dir} />}
      {raw.pageSize && <input type="hidden" name="pageSize" value={raw.pageSize} />}
      {raw.view && <input type="hidden" name="view" value={raw.view} />}
      <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Filter</button>
      <Link href={base} className="py-1.5 text-indigo-700 underline">
        clear
      </Link>
    </form>
  );
}

/** The same filter, order and page as a table or a grid of thumbnails (kept in the address as `view`), and the list's keys. */
export function VideosViewBar({ data: { link, view } }: { data: VideosPageData }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <nav
        className="inline-flex overflow-hidden rounded-md border border-slate-300 text-sm"
        aria-label="View"
        data-testid="view-toggle"
      >
        {(["table", "grid"] as const).map((option) => (
          <Link
            key={option}
            href={link({ view: option === "table" ? undefined : option })}
            aria-current={view === option ? "page" : undefined}
            className={`px-3 py-1 ${view === option ? "bg-indigo-600 text-white" : "bg-white text-slate-700 hover:bg-slate-50"}`}
            data-testid={`view-${option}`}
          >
            {option === "table" ? "Table" : "Grid"}
          </Link>
        ))}
      </nav>
      <p className="text-xs text-slate-500" data-testid="shortcut-hint">
        Keys: <kbd>j</kbd>/<kbd>↓</kbd> next video · <kbd>k</kbd>/<kbd>↑</kbd> previous · <kbd>Enter</kbd> or{" "}
        <kbd>o</kbd> open · <kbd>]</kbd>/<kbd>[</kbd> next/previous page · <kbd>/</kbd> search prompts · <kbd>?</kbd>{" "}
        all keys
      </p>
    </div>
  );
}

export function VideosFilterProblem({ problem, base }: { problem: string[]; base: string }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
      data-testid="filter-error"
    >
      <p className="font-medium">This filter is not valid, so no videos are listed:</p>
      <ul className="ml-5 list-disc">
        {problem.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <Link href={base} className="underline">
        Show all videos
      </Link>
    </div>
  );
}

/** The table's head: a sortable column's header links to the list sorted by it. */
function VideosTableHead({ data: { task, sort, dir, link } }: { data: VideosPageData }) {
  const header = (label: string, column: VideoSort | null, align: "left" | "right" = "left"): ReactNode => {
    if (!column) return <th className={`px-2 py-2 ${align === "right" ? "text-right" : ""}`}>{label}</th>;
    const active = sort === column;
    // A first click shows the worst first: lowest where higher is better, else highest.
    const higherIsBetter = task.metrics.find((m) => m.id === column)?.higherIsBetter;
    const nextDir =
      active && dir === "asc"
        ? "desc"
        : active
          ? "asc"
          : higherIsBetter === false || column === "created"
            ? "desc"
            : "asc";
    return (
      <th
        className={`px-1.5 py-2 ${align === "right" ? "text-right" : ""}`}
        aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : "none"}
      >
        <Link
          href={link({ sort: column, dir: nextDir, page: undefined, cursor: undefined })}
          className={active ? "text-slate-900" : "hover:text-slate-800"}
          data-testid={`sort-${column}`}
        >
          {label}
          {active ? (dir === "asc" ? " ▲" : " ▼") : ""}
        </Link>
      </th>
    );
  };
  return (
    <thead className="text-xs uppercase text-slate-500">
      <tr>
        {header("", null)}
        {header("File", "path")}
        {header("Prompt", "prompt")}
        {header("Model · dimensions", "model")}
        {header("#", null)}
        {header("Status", null)}
        {header("Key frames", null, "right")}
        {task.metrics.map((metric) =>
          metric.scale.kind === "numeric" ? (
            <Fragment key={metric.id}>{header(metric.label, metric.id, "right")}</Fragment>
          ) : (
            <Fragment key={metric.id}>
              {header(task.verdict?.metricId === metric.id ? "Verdict" : metric.label, null)}
            </Fragment>
          ),
        )}
        {header("Reviewers", null, "right")}
        {header("Flag", null)}
        {header("Spans", null, "right")}
      </tr>
    </thead>
  );
}

/** The listed videos as a table (with the deletion's selection) or a grid. */
export function VideosList({
  projectId,
  data,
  canDelete,
}: {
  projectId: string;
  data: VideosPageData;
  canDelete: boolean;
}) {
  const { result, raw, rows, task, view, nextHref, prevHref } = data;
  if (!result) return null;
  return view === "grid" ? (
    result.videos.length === 0 ? (
      <EmptyState title="No videos match">Import videos, or loosen the filters.</EmptyState>
    ) : (
      <VideoGrid
        key={new URLSearchParams(raw).toString()}
        rows={rows}
        metrics={task.metrics}
        verdictMetricId={task.verdict?.metricId ?? null}
        nextHref={nextHref}
        prevHref={prevHref}
        searchInputId={SEARCH_INPUT_ID}
      />
    )
  ) : (
    // The selection stays mounted when a deletion empties the page, so its "Deleted …" status stays in view.
    <VideoSelectionProvider
      key={new URLSearchParams(raw).toString()}
      enabled={canDelete}
      projectId={projectId}
      pageIds={rows.map((row) => row.id)}
    >
      {result.videos.length === 0 ? (
        <EmptyState title="No videos match">Import videos, or loosen the filters.</EmptyState>
      ) : (
        <VideoListTable
          key={new URLSearchParams(raw).toString()}
          rows={rows}
          head={<VideosTableHead data={data} />}
          metrics={task.metrics}
          verdictMetricId={task.verdict?.metricId ?? null}
          nextHref={nextHref}
          prevHref={prevHref}
          searchInputId={SEARCH_INPUT_ID}
        />
      )}
    </VideoSelectionProvider>
  );
}

export function VideosPagination({
  data: { result, page, pages, prevHref, nextHref, link },
}: {
  data: VideosPageData;
}) {
  if (!result) return null;
  return (
    <nav className="flex items-center gap-3 text-sm" aria-label="Pages" data-testid="pagination">
      {page > 1 && <Link href={link({ page: undefined, cursor: undefined })}>« first</Link>}
      {prevHref && (
        <Link href={prevHref} rel="prev">
          ← previous
        </Link>
      )}
      <span data-testid="page-info">
        page {page} of {pages}
        {result.totalExact ? "" : "+"}
      </span>
      {nextHref && (
        <Link href={nextHref} rel="next">
          next →
        </Link>
      )}
      {/* With a capped count the last page is not known (next → walks on). */}
      {result.totalExact && page < pages && <Link href={link({ page: pages, cursor: undefined })}>last »</Link>}
    </nav>
  );
}
