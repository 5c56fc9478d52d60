import { z } from "zod";
import { DYNAMIC_CATEGORY_IDS, INCONSISTENCY_CATEGORY, STATIC_CATEGORY_IDS } from "../judge/hallucination-schemas";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../validation/nul-bytes";

/**
 * The video list's filters, shared by the list page and its API, review queues (created from a
 * filter) and the agreement dashboard. Every field is whitelisted here; unknown query keys are
 * dropped, and `video-filter-sql.ts` turns the parsed object into parameterised SQL, never a raw
 * Prisma `where` from the request.
 */
export const SCORE_CATEGORIES = [...STATIC_CATEGORY_IDS, ...DYNAMIC_CATEGORY_IDS, INCONSISTENCY_CATEGORY] as const;

export const REVIEW_STATES = ["unreviewed", "reviewed", "reviewed_by_me", "not_reviewed_by_me", "disagreement"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const VIDEO_SORTS = ["path", "prompt", "model", "created", "S", "D", "I", "overall"] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];

const text = (max: number) => z.string().trim().min(1).max(max).refine(noNulBytes, NUL_BYTE_MESSAGE).optional();
const id = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/).optional();
/** Query strings carry numbers as text; an empty field means "no bound". */
const bound = (min: number, max: number) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().finite().min(min).max(max).optional());
const yesNo = z.enum(["yes", "no"]).optional();

export const videoFilterSchema = z.object({
  dimension: text(100),
  model: text(200),
  /** Case-insensitive substring of the prompt. */
  prompt: text(500),
  status: z.enum(["pending_extraction", "ready", "failed"]).optional(),
  /** The judge run whose scores are shown and filtered; given, only videos in that run are listed. */
  runId: id,
  /** With categoryMin/Max: the category's worst (maximum) score over key frames or clusters in the run. */
  category: z.enum(SCORE_CATEGORIES).optional(),
  categoryMin: bound(0, 10),
  categoryMax: bound(0, 10),
  sMin: bound(0, 10),
  sMax: bound(0, 10),
  dMin: bound(0, 10),
  dMax: bound(0, 10),
  iMin: bound(0, 10),
  iMax: bound(0, 10),
  overallMin: bound(0, 100),
  overallMax: bound(0, 100),
  /** The judge's per-video hallucination verdict in the run. */
  verdict: yesNo,
  /** The reviewers' majority verdict in the run (ties match neither). */
  humanVerdict: yesNo,
  review: z.enum(REVIEW_STATES).optional(),
});
export type VideoFilter = z.output<typeof videoFilterSchema>;

export const videoListQuerySchema = videoFilterSchema.extend({
  sort: z.enum(VIDEO_SORTS).default("path"),
  dir: z.enum(["asc", "desc"]).default("asc"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});
export type VideoListQuery = z.output<typeof videoListQuerySchema>;

/** Parses URL search params (first value of each key); a malformed field is a 400 in the API. */
export function searchParamsObject(params: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string> {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const);
  const out: Record<string, string> = {};
  for (const [key, value] of entries) if (typeof value === "string" && value !== "" && !(key in out)) out[key] = value;
  return out;
}

/** The filter as query-string pairs (for links that keep the filter, and to store with a queue). */
export function filterToSearchParams(filter: Partial<Record<string, string | number | undefined>>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined && value !== "") params.set(key, String(value));
  return params;
}

/** The filter reads the judge's values or other reviewers' (not just the caller's own review state). */
export function filterReadsValues(filter: VideoFilter): boolean {
  return (
    filter.category !== undefined ||
    [filter.sMin, filter.sMax, filter.dMin, filter.dMax, filter.iMin, filter.iMax, filter.overallMin, filter.overallMax].some((v) => v !== undefined) ||
    filter.verdict !== undefined ||
    filter.humanVerdict !== undefined ||
    filter.review === "disagreement"
  );
}

/** Filters that need a judge run: without one (no run in the project) they match nothing. */
export function filterNeedsRun(filter: VideoFilter): boolean {
  return filterReadsValues(filter) || filter.categoryMin !== undefined || filter.categoryMax !== undefined || filter.review !== undefined;
}
