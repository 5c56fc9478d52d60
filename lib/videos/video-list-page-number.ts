import type { TaskCatalogue } from "../task-modules/task-catalogue";
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { type BrowseResult, LIST_COUNT_CAP, browseVideos } from "./browse-videos";
import { MAX_LIST_PAGE, type VideoListQuery } from "./video-filter";

/**
 * The video list page's `page` as a person typed it into the address. The API answers 400 to a page its
 * schema refuses; the page instead shows the nearest page there is, with a plain sentence saying which and
 * why (never the schema's own message): below 1 or not a number, the first page; past the end, the last.
 */
export interface RequestedPage {
  /** The page to ask `browseVideos` for: 1 … MAX_LIST_PAGE. */
  page: number;
  /** The whole number typed, as typed (trimmed, shortened when long), when it was one; null otherwise. */
  asked: string | null;
  /** True when the number typed is past MAX_LIST_PAGE, so `page` is that bound instead. */
  pastBound: boolean;
  /** The sentence to show when the page shown is not the one asked for; null when it is. */
  notice: string | null;
}

const PAGE_NUMBER = /^[+-]?\d+$/;

/** The typed value as a sentence can quote it: a page number is no longer than this. */
function quoted(text: string): string {
  return text.length > 24 ? `${text.slice(0, 24)}…` : text;
}

/** Reads `page` from the address (undefined when absent): the page to browse, and a sentence when it is not the one typed. */
export function readRequestedPage(value: string | undefined): RequestedPage {
  const text = value?.trim() ?? "";
  if (text === "") return { page: 1, asked: null, pastBound: false, notice: null };
  if (!PAGE_NUMBER.test(text))
    return {
      page: 1,
      asked: null,
      pastBound: false,
      notice: `"${quoted(text)}" is not a page number: showing page 1.`,
    };
  const number = Number(text);
  const asked = quoted(text);
  if (number < 1)
    return { page: 1, asked, pastBound: false, notice: `Page ${asked} is before the first page: showing page 1.` };
  // A page past the schema's bound is almost always past the end of the list too (checked once browsed).
  return { page: Math.min(number, MAX_LIST_PAGE), asked, pastBound: number > MAX_LIST_PAGE, notice: null };
}

/**
 * Browses the requested page; a page past the end of the list is browsed again at the last page (or, when
 * the count was capped and the last page is unknown, the first), with a sentence saying so. With a cursor,
 * `page` is ignored, as `browseVideos` does.
 */
export async function browseVideosAtRequestedPage(
  prisma: PrismaClient,
  access: ProjectAccess,
  query: VideoListQuery,
  requested: RequestedPage,
  catalogue?: TaskCatalogue,
): Promise<{ result: BrowseResult; notice: string | null }> {
  if (query.cursor) return { result: await browseVideos(prisma, access, query, catalogue), notice: null };
  const result = await browseVideos(prisma, access, { ...query, page: requested.page }, catalogue);
  const asked = requested.asked ?? String(requested.page);
  if (result.videos.length > 0 || result.page <= 1) {
    // Rows on the deepest page the list opens by number, though a deeper one was asked for (over 100,000 pages).
    return {
      result,
      notice: requested.pastBound
        ? `Page ${asked} is past the deepest page opened by number (${MAX_LIST_PAGE}): showing page ${MAX_LIST_PAGE}.`
        : requested.notice,
    };
  }
  if (result.totalExact) {
    const last = Math.max(1, Math.ceil(result.total / result.pageSize));
    const lastPage = await browseVideos(prisma, access, { ...query, page: last }, catalogue);
    return { result: lastPage, notice: `Page ${asked} is past the last page (${last}): showing page ${last}.` };
  }
  // More than LIST_COUNT_CAP videos match, so the last page is not counted: go back to the first.
  const firstPage = await browseVideos(prisma, access, { ...query, page: 1 }, catalogue);
  return {
    result: firstPage,
    notice: `Page ${asked} is past the end of the list (over ${LIST_COUNT_CAP.toLocaleString("en")} videos match, so its last page is not counted): showing page 1.`,
  };
}
