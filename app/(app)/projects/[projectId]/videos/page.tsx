import Link from "next/link";
import type { ReactNode } from "react";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { VideoListTable, type VideoListRow } from "@/components/videos/video-list-table";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { type BrowseResult, browseOptions, browseVideos } from "@/lib/videos/browse-videos";
import { SCORE_CATEGORIES, REVIEW_STATES, type VideoSort, filterToSearchParams, searchParamsObject, videoFilterSchema, videoListQuerySchema } from "@/lib/videos/video-filter";

const SEARCH_INPUT_ID = "video-prompt-filter";
const REVIEW_LABELS: Record<(typeof REVIEW_STATES)[number], string> = {
  unreviewed: "no reviews",
  reviewed: "reviewed",
  reviewed_by_me: "reviewed by me",
  not_reviewed_by_me: "not reviewed by me",
  disagreement: "a reviewer disagrees",
};
const FILTER_KEYS = Object.keys(videoFilterSchema.shape);

const when = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

export default async function VideosPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { projectId } = await params;
  const { actor, role } = await requirePageProjectAccess(projectId);
  const raw = searchParamsObject(await searchParams);
  const parsed = videoListQuerySchema.safeParse(raw);
  const [options, outcome] = await Promise.all([
    browseOptions(prisma, actor, projectId),
    parsed.success
      ? browseVideos(prisma, actor, projectId, parsed.data).catch((error: unknown) => {
          // A run id that is not one of this project's runs.
          if (error instanceof NotFoundError) return { problem: [`runId: ${error.message}`] };
          throw error;
        })
      : { problem: parsed.error.issues.map((issue) => `${issue.path.join(".") || "filter"}: ${issue.message}`) },
  ]);
  const result: BrowseResult | null = "problem" in outcome ? null : outcome;
  const problem: string[] = "problem" in outcome ? outcome.problem : [];
  const query = parsed.success ? parsed.data : null;
  const sort: VideoSort = query?.sort ?? "path";
  const dir = query?.dir ?? "asc";

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
  const prevHref = result && page > 1 ? link({ page: Math.min(page - 1, pages) === 1 ? undefined : Math.min(page - 1, pages) }) : null;
  const nextHref = result && page < pages ? link({ page: page + 1 }) : null;
  const filterParams = filterToSearchParams(Object.fromEntries(Object.entries(raw).filter(([key]) => FILTER_KEYS.includes(key))));

  const header = (label: string, column: VideoSort | null, align: "left" | "right" = "left"): ReactNode => {
    if (!column) return <th className={`px-2 py-2 ${align === "right" ? "text-right" : ""}`}>{label}</th>;
    const active = sort === column;
    const nextDir = active && dir === "asc" ? "desc" : active ? "asc" : column === "overall" || column === "path" || column === "prompt" || column === "model" ? "asc" : "desc";
    return (
      <th className={`px-2 py-2 ${align === "right" ? "text-right" : ""}`} aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : "none"}>
        <Link href={link({ sort: column, dir: nextDir, page: undefined })} className={active ? "text-slate-900" : "hover:text-slate-800"} data-testid={`sort-${column}`}>
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
        {header("Dimensions", null)}
        {header("Model", "model")}
        {header("#", null)}
        {header("Status", null)}
        {header("Key frames", null, "right")}
        {header("I", "I", "right")}
        {header("S", "S", "right")}
        {header("D", "D", "right")}
        {header("Overall", "overall", "right")}
        {header("Verdict", null)}
        {header("Reviewers", null, "right")}
        {header("Mine", null)}
        {header("Flag", null)}
      </tr>
    </thead>
  );
  const rows: VideoListRow[] = (result?.videos ?? []).map((video) => ({
    id: video.id,
    href: `/projects/${projectId}/videos/${video.id}`,
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

  const value = (key: string) => raw[key] ?? "";
  const input = "rounded-md border border-slate-300 px-2 py-1.5";
  const rangeInput = "w-16 rounded-md border border-slate-300 px-2 py-1.5";
  const range = (label: string, min: string, max: string, limit: number) => (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1">{label}</legend>
      <div className="flex items-center gap-1">
        <input name={min} aria-label={`${label} min`} type="number" min={0} max={limit} step="any" defaultValue={value(min)} className={rangeInput} />
        <span>–</span>
        <input name={max} aria-label={`${label} max`} type="number" min={0} max={limit} step="any" defaultValue={value(max)} className={rangeInput} />
      </div>
    </fieldset>
  );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Videos</h1>
        {result && (
          <span className="text-sm text-slate-500" data-testid="video-total">
            {result.total.toLocaleString("en")} matching
          </span>
        )}
        {roleCan(role, "queues.manage") && (
          <Link href={`/projects/${projectId}/queues/new${filterParams.size > 0 ? `?${filterParams.toString()}` : ""}`} className="text-sm text-indigo-700 underline" data-testid="create-queue-link">
            Create review queue from this filter
          </Link>
        )}
        <Link href={`/projects/${projectId}`} className="ml-auto text-sm text-indigo-700 underline">
          project
        </Link>
      </div>

      <form className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm" method="get" action={base} data-testid="video-filter-form">
        <label className="flex flex-col gap-1">
          <span>Prompt contains</span>
          <input id={SEARCH_INPUT_ID} name="prompt" type="search" defaultValue={value("prompt")} placeholder="press / to search" className={input} />
        </label>
        <label className="flex flex-col gap-1">
          <span>Dimension</span>
          <select name="dimension" defaultValue={value("dimension")} className={input}>
            <option value="">any</option>
            {options.dimensions.map((d) => (
              <option key={d}>{d}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>Model</span>
          <select name="model" defaultValue={value("model")} className={input}>
            <option value="">any</option>
            {options.models.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>Status</span>
          <select name="status" defaultValue={value("status")} className={input}>
            <option value="">any</option>
            <option value="ready">ready</option>
            <option value="pending_extraction">pending extraction</option>
            <option value="failed">failed</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>Run</span>
          <select name="runId" defaultValue={value("runId")} className={input}>
            <option value="">latest{options.runs[0] ? ` (${when(options.runs[0].createdAt)})` : ""}</option>
            {options.runs.map((run) => (
              <option key={run.id} value={run.id}>
                {when(run.createdAt)} · {run.pipeline} · {run.status}
                {run.simulated ? " · simulated" : ""}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1">Category (worst score)</legend>
          <div className="flex items-center gap-1">
            <select name="category" aria-label="Category" defaultValue={value("category")} className={input}>
              <option value="">—</option>
              {SCORE_CATEGORIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
            <input name="categoryMin" aria-label="Category min" type="number" min={0} max={10} step="any" defaultValue={value("categoryMin")} className={rangeInput} />
            <span>–</span>
            <input name="categoryMax" aria-label="Category max" type="number" min={0} max={10} step="any" defaultValue={value("categoryMax")} className={rangeInput} />
          </div>
        </fieldset>
        {range("S", "sMin", "sMax", 10)}
        {range("D", "dMin", "dMax", 10)}
        {range("I", "iMin", "iMax", 10)}
        {range("Overall", "overallMin", "overallMax", 100)}
        <label className="flex flex-col gap-1">
          <span>Judge verdict</span>
          <select name="verdict" defaultValue={value("verdict")} className={input}>
            <option value="">any</option>
            <option value="yes">hallucination</option>
            <option value="no">none</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>Reviewers&apos; verdict</span>
          <select name="humanVerdict" defaultValue={value("humanVerdict")} className={input}>
            <option value="">any</option>
            <option value="yes">hallucination (majority)</option>
            <option value="no">none (majority)</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>Review</span>
          <select name="review" defaultValue={value("review")} className={input}>
            <option value="">any</option>
            {REVIEW_STATES.map((state) => (
              <option key={state} value={state}>
                {REVIEW_LABELS[state]}
              </option>
            ))}
          </select>
        </label>
        {raw.sort && <input type="hidden" name="sort" value={raw.sort} />}
        {raw.dir && <input type="hidden" name="dir" value={raw.dir} />}
        {raw.pageSize && <input type="hidden" name="pageSize" value={raw.pageSize} />}
        <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Filter</button>
        <Link href={base} className="py-1.5 text-indigo-700 underline">
          clear
        </Link>
      </form>

      <p className="text-xs text-slate-500" data-testid="shortcut-hint">
        Keys: <kbd>j</kbd>/<kbd>↓</kbd> next row · <kbd>k</kbd>/<kbd>↑</kbd> previous · <kbd>Enter</kbd> or <kbd>o</kbd> open · <kbd>]</kbd>/<kbd>[</kbd> next/previous page · <kbd>/</kbd> search prompts
      </p>

      {problem.length > 0 ? (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="filter-error">
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
          {result.videos.length === 0 ? (
            <EmptyState title="No videos match">Import videos, or loosen the filters.</EmptyState>
          ) : (
            <VideoListTable key={new URLSearchParams(raw).toString()} rows={rows} head={head} nextHref={nextHref} prevHref={prevHref} searchInputId={SEARCH_INPUT_ID} />
          )}
          <nav className="flex items-center gap-3 text-sm" aria-label="Pages" data-testid="pagination">
            {page > 1 && <Link href={link({ page: undefined })}>« first</Link>}
            {prevHref && (
              <Link href={prevHref} rel="prev">
                ← previous
              </Link>
            )}
            <span data-testid="page-info">
              page {page} of {pages}
            </span>
            {nextHref && (
              <Link href={nextHref} rel="next">
                next →
              </Link>
            )}
            {page < pages && <Link href={link({ page: pages })}>last »</Link>}
          </nav>
        </>
      ) : null}
    </div>
  );
}
