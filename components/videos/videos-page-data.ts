/**
 * What the Videos page reads: its filter from the address, one page of the matching videos, the filter's choices, and
 * the links its sort headers, views and pages use.
 */
import type { ProjectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import { runPickerLabels } from "@/lib/judge/runs/run-option-labels";
import type { TaskCatalogue } from "@/lib/task-modules/task-catalogue";
import { type BrowseResult, browseOptions } from "@/lib/videos/browse-videos";
import {
  type VideoSort,
  filterToSearchParams,
  isVideoFilterKey,
  videoListQuerySchema,
} from "@/lib/videos/video-filter";
import { browseVideosAtRequestedPage, readRequestedPage } from "@/lib/videos/video-list-page-number";
import type { VideoListRow } from "@/components/videos/video-list-table";

export type VideosPageData = Awaited<ReturnType<typeof loadVideosPage>>;
/** A link to the Videos page with some of its parameters changed (undefined or "" drops one). */
export type VideosLink = (patch: Record<string, string | number | undefined>) => string;

export async function loadVideosPage(access: ProjectAccess, catalogue: TaskCatalogue, typed: Record<string, string>) {
  const { projectId } = access;
  // A hand-typed page out of range or not a number shows the nearest page with a sentence (the API answers 400).
  const requested = readRequestedPage(typed.page);
  const parsed = videoListQuerySchema(catalogue).safeParse({ ...typed, page: String(requested.page) });
  const [options, outcome] = await Promise.all([
    browseOptions(prisma, access),
    parsed.success
      ? browseVideosAtRequestedPage(prisma, access, parsed.data, requested, catalogue).catch((error: unknown) => {
          // A run id that is not one of this project's runs.
          if (isAppErrorCode(error, "not_found")) return { problem: [`runId: ${error.message}`] };
          // A filter the run's task does not declare (the message names the field).
          if (isAppErrorCode(error, "invalid_request")) return { problem: [error.message] };
          throw error;
        })
      : { problem: parsed.error.issues.map((issue) => `${issue.path.join(".") || "filter"}: ${issue.message}`) },
  ]);
  // The run select tells runs apart by task and by what differs between them (lib/judge/runs/run-option-labels).
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
  const link: VideosLink = (patch: Record<string, string | number | undefined>) => {
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
  return {
    ...{ options, runLabels, result, pageNotice, problem, raw, sort, dir, view, base, link },
    ...{ pages, page, prevHref, nextHref, filterParams, task, rows: videoRows(projectId, raw, result) },
  };
}

/** The listed videos' rows; the video page's previous/next follow this list: its query (without the page) travels as `list`. */
function videoRows(projectId: string, raw: Record<string, string>, result: BrowseResult | null): VideoListRow[] {
  const listParams = new URLSearchParams(raw);
  listParams.delete("page");
  listParams.delete("pageSize");
  const listSuffix = listParams.size > 0 ? `?list=${encodeURIComponent(listParams.toString())}` : "";
  return (result?.videos ?? []).map((video) => ({
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
    spans: video.spans,
  }));
}
