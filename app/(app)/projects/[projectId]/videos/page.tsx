import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { DeletedNotice } from "@/components/videos/deleted-notice";
import { VideoFilterFields } from "@/components/videos/video-filter-fields";
import { VideoGrid } from "@/components/videos/video-grid";
import { VideoListTable, type VideoListRow } from "@/components/videos/video-list-table";
import { VideoSelectionProvider } from "@/components/videos/video-selection";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import { runPickerLabels } from "@/lib/runs/run-option-labels";
import { type BrowseResult, LIST_COUNT_CAP, browseOptions } from "@/lib/videos/browse-videos";
import {
  type VideoSort,
  filterToSearchParams,
  isVideoFilterKey,
  searchParamsObject,
  videoListQuerySchema,
} from "@/lib/videos/video-filter";
import { browseVideosAtRequestedPage, readRequestedPage } from "@/lib/videos/video-list-page-number";

const SEARCH_INPUT_ID = "video-prompt-filter";

const when = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

export default async function VideosPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor, role, catalogue } = await requirePageProjectAccess(projectId);
  const typed = searchParamsObject(await searchParams);
  // A hand-typed page out of range or not a number shows the nearest page with a sentence (the API answers 400).
  const requested = readRequestedPage(typed.page);
  const parsed = videoListQuerySchema(catalogue).safeParse({ ...typed, page: String(requested.page) });
  const [options, outcome] = await Promise.all([
    browseOptions(prisma, actor, projectId),
    parsed.success
      ? browseVideosAtRequestedPage(prisma, actor, projectId, parsed.data, requested, catalogue).catch(
          (error: unknown) => {
            // A run id that is not one of this project's runs.
            if (isAppErrorCode(error, "not_found")) return { problem: [`runId: ${error.message}`] };
            // A filter the run's task does not declare (the message names the field).
            if (isAppErrorCode(error, "invalid_request")) return { problem: [error.message] };
            throw error;
          },
        )
      : { problem: parsed.error.issues.map((issue) => `${issue.path.join(".") || "filter"}: ${issue.message}`) },
  ]);
  // The run select tells runs apart by task and by what differs between them (lib/runs/run-option-labels).
  const runLabels = await runPickerLabels(
    prisma,
    projectId,
    options.runs.map((run) => run.id),
  );
  const result: BrowseResult | null = "problem" in outcome ? null : outcome.result;
  const pageNotice = "problem" in outcome ? null : outcome.notice;
  const problem: string[] = "problem" in outcome ? outcome.problem : [];
  // The address as shown: its page is the one shown (links from here keep that page, not the one typed).
  const raw: Record<string, string> = { ...typed };
  delete raw.page;
  // A one-time notice from the video page's deletion: not carried into this page's links.
  delete raw.deleted;
  if (result && !raw.cursor && result.page > 1) raw.page = String(result.page);
  const query = parsed.success ? parsed.data : null;
  const sort: VideoSort = query?.sort ?? "path";
  const dir = query?.dir ?? "asc";
  const view = query?.view ?? "table";

  const base = `/projects/${projectId}/videos`;
  const link = (patch: Record<string, string | number | undefined>) => {
    const next = new URLSearchParams(raw);
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined || value === "") next.delete(key);
      else next.set(key, String(value));
    }
    const text = next.toString();
    return text ? `${base}?${text}` : base;
  };
  const pages = result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1;
  const page = result?.page ?? 1;
  // Next and previous go by position (cursor), so a deep page costs what the first does; a page
  // with no rows to stand on (past the end) goes back by number.
  const prevHref = !result
    ? null
    : result.prevCursor
      ? link({ cursor: result.prevCursor, page: undefined })
      : page > 1
        ? link({ cursor: undefined, page: Math.min(page - 1, pages) === 1 ? undefined : Math.min(page - 1, pages) })
        : null;
  const nextHref = result?.nextCursor ? link({ cursor: result.nextCursor, page: undefined }) : null;
  const filterParams = filterToSearchParams(
    Object.fromEntries(Object.entries(raw).filter(([key]) => isVideoFilterKey(catalogue, key))),
  );
  // The columns and filters are the shown run's task's; with no run yet, the first video task's.
  const task = result?.run
    ? catalogue.taskOf(result.run.pipeline)
    : catalogue.taskOf(catalogue.videoSubjectPipelineIds()[0] ?? catalogue.tasks[0]!.id);

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
        className={`px-2 py-2 ${align === "right" ? "text-right" : ""}`}
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
  const head = (
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
        {header("Mine", null)}
        {header("Flag", null)}
      </tr>
    </thead>
  );
  // The video page's previous/next follow this list: its query (without the page) travels as `list`.
  const listParams = new URLSearchParams(raw);
  listParams.delete("page");
  listParams.delete("pageSize");
  const listSuffix = listParams.size > 0 ? `?list=${encodeURIComponent(listParams.toString())}` : "";
  const rows: VideoListRow[] = (result?.videos ?? []).map((video) => ({
    id: video.id,
    href: `/projects/${projectId}/videos/${video.id}${listSuffix}`,
    fileName: video.fileName,
    prompt: video.prompt,
    dimensions: video.dimensions,
    model: video.model,
    sampleIndex: video.sampleIndex,
    status: video.status,
    keyFrameCount: video.keyFrameCount,
    thumbnailUrl: video.thumbnailUrl,
    scores: video.scores,
    review: video.review,
    blind: video.blind,
  }));

  return (
    <div className="flex flex-col gap-4">
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
        {roleCan(role, "queues.manage") && (
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

      <DeletedNotice deleted={typed.deleted} />

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

      <div className="flex flex-wrap items-center gap-3">
        {/* The same filter, order and page as a table or a grid of thumbnails (kept in the address as `view`). */}
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

      {problem.length > 0 ? (
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
      ) : result ? (
        <>
          {pageNotice && (
            <p
              role="status"
              className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
              data-testid="page-notice"
            >
              {pageNotice}
            </p>
          )}
          <p className="text-sm text-slate-600" data-testid="score-run">
            {result.run ? (
              <>
                Scores from run {when(result.run.createdAt)} ({result.run.pipeline}, {result.run.status}
                {result.run.simulated ? ", simulated judgments" : ""}).
              </>
            ) : (
              "No judge run yet: no scores to show."
            )}
          </p>
          {view === "grid" ? (
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
              enabled={roleCan(role, "videos.delete")}
              projectId={projectId}
              pageIds={rows.map((row) => row.id)}
            >
              {result.videos.length === 0 ? (
                <EmptyState title="No videos match">Import videos, or loosen the filters.</EmptyState>
              ) : (
                <VideoListTable
                  key={new URLSearchParams(raw).toString()}
                  rows={rows}
                  head={head}
                  metrics={task.metrics}
                  verdictMetricId={task.verdict?.metricId ?? null}
                  nextHref={nextHref}
                  prevHref={prevHref}
                  searchInputId={SEARCH_INPUT_ID}
                />
              )}
            </VideoSelectionProvider>
          )}
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
        </>
      ) : null}
    </div>
  );
}
