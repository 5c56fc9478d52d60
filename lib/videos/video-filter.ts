import { z } from "zod";
import { ValidationError } from "../errors";
import type { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import {
  type MetricDeclaration,
  metricOf,
  type QueryAlias,
  scaleBounds,
  targetOf,
  type TaskDeclaration,
} from "../task-modules/task-declaration";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../validation/nul-bytes";
import { SPAN_AUTHOR_FILTERS } from "./span-author-filter";
import { videoListCursorSchema } from "./video-list-cursor";

/**
 * The video list's filters, shared by the list page and its API, review queues (created from a
 * filter) and the agreement dashboard. Every field is whitelisted here; unknown query keys are
 * dropped (one shaped as a metric filter that no task declares is refused), and `video-filter-sql.ts` turns the parsed
 * object into parameterised SQL, never a raw
 * Prisma `where` from the request.
 *
 * Metric filters are generic: `min.<metric>` / `max.<metric>` on a numeric metric and `is.<metric>`
 * on a categorical one (a label or the stored number), for every metric a judge task declares; a
 * task may declare older keys for the same filters (`queryAliases`). A query is parsed before its
 * run is known, so parsing accepts what any task declares; `resolveFilterForTask` then checks it
 * against the task of the run the filter reads. The tasks are the request's catalogue (its project's rubric tasks
 * included, another project's unknown): the schemas and keys below are built from it and kept with it.
 */

/** Target ids a `category` filter may name (any task's; the run's own task is checked once the run is known). */
export function scoreCategories(catalogue: DeclarationCatalogue): [string, ...string[]] {
  return catalogue.allTargetIds() as [string, ...string[]];
}

export const REVIEW_STATES = [
  "unreviewed",
  "reviewed",
  "reviewed_by_me",
  "not_reviewed_by_me",
  "disagreement",
] as const;

/** Sorts on the video's own fields; a declared metric's id sorts on that metric. */
export const FIELD_SORTS = ["path", "prompt", "model", "created"] as const;
/**
 * An ensemble run's (lib/ensembles) per-video spread of its members: the largest of its scores' dispersion over
 * the target's unstable threshold (1 or more: unstable), stored as the run's metric of this id.
 */
export const DISPERSION_SORT = "dispersion";
export function videoSorts(catalogue: DeclarationCatalogue): [string, ...string[]] {
  return catalogue.derived(
    "video-filter.sorts",
    () => [...FIELD_SORTS, DISPERSION_SORT, ...catalogue.allMetrics().map((m) => m.id)] as [string, ...string[]],
  );
}
export type VideoSort = string;

export function isFieldSort(sort: string): sort is (typeof FIELD_SORTS)[number] {
  return (FIELD_SORTS as readonly string[]).includes(sort);
}

const text = (max: number) => z.string().trim().min(1).max(max).refine(noNulBytes, NUL_BYTE_MESSAGE).optional();
const id = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/)
  .optional();
/** Query strings carry numbers as text; an empty field means "no bound". */
const bound = (min: number, max: number) =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number().finite().min(min).max(max).optional(),
  );
const yesNo = z.enum(["yes", "no"]).optional();

type MetricBound = QueryAlias["bound"];

/** The generic query key of a metric's filter. */
export function metricFilterKey(metricId: string, which: MetricBound): string {
  return `${which}.${metricId}`;
}

interface MetricKey {
  metric: string;
  bound: MetricBound;
  /** A task's declared older key rather than the generic one. */
  alias: boolean;
}

/** Every query key that filters on a metric (generic, or a declared alias), with what it filters. */
function metricKeys(catalogue: DeclarationCatalogue): ReadonlyMap<string, MetricKey> {
  return catalogue.derived("video-filter.metricKeys", () => buildMetricKeys(catalogue));
}

function buildMetricKeys(catalogue: DeclarationCatalogue): ReadonlyMap<string, MetricKey> {
  const keys = new Map<string, MetricKey>();
  for (const metric of catalogue.allMetrics()) {
    for (const which of metric.scale.kind === "categorical" ? (["is"] as const) : (["min", "max"] as const)) {
      keys.set(metricFilterKey(metric.id, which), { metric: metric.id, bound: which, alias: false });
    }
  }
  for (const alias of catalogue.allQueryAliases())
    keys.set(alias.key, { metric: alias.metric, bound: alias.bound, alias: true });
  return keys;
}

function metricFieldSchema(metric: MetricDeclaration, key: MetricKey) {
  if (metric.scale.kind === "categorical") {
    const labels = metric.scale.values.map((v) => v.label);
    // An older key takes labels only, as it always did; the generic key also takes the stored number.
    return z
      .enum(
        (key.alias ? labels : [...labels, ...metric.scale.values.map((v) => String(v.value))]) as [string, ...string[]],
      )
      .optional();
  }
  const { min, max } = scaleBounds(metric.scale);
  return bound(min, max);
}

function metricShape(catalogue: DeclarationCatalogue): Record<string, z.ZodType<string | number | undefined>> {
  return Object.fromEntries(
    [...metricKeys(catalogue)].map(([key, spec]) => [
      key,
      metricFieldSchema(
        catalogue.allMetrics().find((m) => m.id === spec.metric)!,
        spec,
      ),
    ]),
  );
}

/** A category filter's bounds before its run is known: the widest of any declared target's scale. */
function categoryBounds(catalogue: DeclarationCatalogue) {
  const bounds = catalogue.allTargets().map((t) => scaleBounds(t.scale));
  return { min: Math.min(...bounds.map((b) => b.min)), max: Math.max(...bounds.map((b) => b.max)) };
}

/** The filter's own fields, built from the catalogue's declarations (its category enum and bounds). */
function fieldFilterSchema(catalogue: DeclarationCatalogue) {
  return catalogue.derived("video-filter.fields", () => buildFieldFilterSchema(catalogue));
}

function buildFieldFilterSchema(catalogue: DeclarationCatalogue) {
  const categoryRange = categoryBounds(catalogue);
  return z.object({
    dimension: text(100),
    model: text(200),
    /** Case-insensitive substring of the prompt. */
    prompt: text(500),
    status: z.enum(["pending_extraction", "ready", "failed"]).optional(),
    /** The judge run whose scores are shown and filtered; given, only videos in that run are listed. */
    runId: id,
    /** With categoryMin/Max: the target's worst (maximum) score over key frames or clusters in the run. */
    category: z.enum(scoreCategories(catalogue)).optional(),
    categoryMin: bound(categoryRange.min, categoryRange.max),
    categoryMax: bound(categoryRange.min, categoryRange.max),
    /** The reviewers' majority verdict in the run (ties match neither). */
    humanVerdict: yesNo,
    review: z.enum(REVIEW_STATES).optional(),
    /**
     * An ensemble run's videos with an unstable score (self-consistency samples or panel judges spread past the
     * target's threshold); with `category`, of that target.
     */
    unstable: z.enum(["1"]).optional(),
    /** Videos with spans that count: any, a person's (reviewer or label set), or a judge run's. No run needed. */
    spans: z.enum(SPAN_AUTHOR_FILTERS).optional(),
  });
}
type FieldFilterSchema = ReturnType<typeof buildFieldFilterSchema>;

/** The prefixes of a generic metric filter's key (metricFilterKey). */
const METRIC_KEY = /^(min|max|is)\.(.*)$/s;

/**
 * A key that reads as a metric filter (`min.Overall`, `is.verdit`) but names no metric any task declares is refused:
 * dropped like other unknown keys, a typo would silently list every video. (Metric ids are case-sensitive.)
 */
function refuseUndeclaredMetricKeys(
  catalogue: DeclarationCatalogue,
  filter: Record<string, unknown>,
  ctx: z.RefinementCtx,
): void {
  for (const key of Object.keys(filter)) {
    const match = METRIC_KEY.exec(key);
    if (!match || metricKeys(catalogue).has(key)) continue;
    const declared = catalogue.allMetrics().find((m) => m.id === match[2]);
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: declared
        ? `${match[1]}. does not apply to ${declared.label}: a ${declared.scale.kind === "categorical" ? "categorical metric takes is." : "numeric metric takes min. and max."}`
        : `no task declares a metric "${match[2]}" (metric ids are case-sensitive).`,
    });
  }
}

/**
 * The fields above plus one optional field per metric query key (`min.S`, `sMin`, `is.verdict`, …). Other keys are
 * dropped (read as undefined), except one shaped as a metric filter that no task declares, which is refused.
 */
// (The metric keys are known only at run time, so the static type carries them as an index signature below.)
export function videoFilterSchema(catalogue: DeclarationCatalogue) {
  return catalogue.derived("video-filter.filter", () => {
    const schema = fieldFilterSchema(catalogue).extend(metricShape(catalogue) as Record<never, never>);
    // Typed as the object without its catch-all: the keys it drops are read as undefined, never used.
    return schema
      .catchall(z.unknown().transform(() => undefined))
      .superRefine((filter, ctx) => refuseUndeclaredMetricKeys(catalogue, filter, ctx)) as unknown as typeof schema;
  });
}
export type VideoFilter = z.output<FieldFilterSchema> & { [metricKey: string]: string | number | undefined };
/** What a caller may pass to be parsed (query-string values, or numbers in a JSON body). */
export type VideoFilterInput = z.input<FieldFilterSchema> & { [metricKey: string]: unknown };

export const VIDEO_LIST_VIEWS = ["table", "grid"] as const;

/** The deepest page the list opens by number (`page`); deeper, walk with `cursor`. */
export const MAX_LIST_PAGE = 100_000;

export function videoListQuerySchema(catalogue: DeclarationCatalogue) {
  return catalogue.derived("video-filter.listQuery", () => buildVideoListQuerySchema(catalogue));
}

function buildVideoListQuerySchema(catalogue: DeclarationCatalogue) {
  return videoFilterSchema(catalogue).extend({
    sort: z.enum(videoSorts(catalogue)).default("path"),
    dir: z.enum(["asc", "desc"]).default("asc"),
    /** Page by number (OFFSET: deep pages read every row before them). Ignored when `cursor` is given. */
    page: z.coerce.number().int().min(1).max(MAX_LIST_PAGE).default(1),
    pageSize: z.coerce.number().int().min(1).max(500).default(50),
    /** A previous answer's `nextCursor` / `prevCursor`: the page after / before it, by position (keyset). */
    cursor: videoListCursorSchema.optional(),
    /** How the list page shows the page of videos: a table, or a grid of thumbnails (the same filter, order and page). */
    view: z.enum(VIDEO_LIST_VIEWS).default("table"),
  });
}
export type VideoListQuery = z.output<ReturnType<typeof buildVideoListQuerySchema>> & VideoFilter;

/** Is this query key one of the filter's fields (a video field or a metric filter)? */
export function isVideoFilterKey(catalogue: DeclarationCatalogue, key: string): boolean {
  return key in fieldFilterSchema(catalogue).shape || metricKeys(catalogue).has(key);
}

/** Parses URL search params (first value of each key); a malformed field is a 400 in the API. */
export function searchParamsObject(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const entries =
    params instanceof URLSearchParams
      ? [...params.entries()]
      : Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const);
  const out: Record<string, string> = {};
  for (const [key, value] of entries) if (typeof value === "string" && value !== "" && !(key in out)) out[key] = value;
  return out;
}

/** The filter as query-string pairs (for links that keep the filter, and to store with a queue). */
export function filterToSearchParams(filter: Partial<Record<string, unknown>>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter))
    if ((typeof value === "string" || typeof value === "number") && value !== "") params.set(key, String(value));
  return params;
}

/** A metric filter: the metric's value within [min, max] (a categorical value: min = max = it). */
export interface MetricCondition {
  metric: string;
  min?: number;
  max?: number;
}

function metricFilterKeysIn(catalogue: DeclarationCatalogue, filter: VideoFilter): string[] {
  const keys = metricKeys(catalogue);
  return Object.keys(filter).filter((key) => filter[key] !== undefined && keys.has(key));
}

/**
 * The filter's metric conditions. With the run's task, every key is checked against its
 * declaration: a metric it does not declare, or a value off the metric's scale, is a
 * ValidationError naming the query key. Without one (no run to read), keys read any task's.
 */
export function metricConditions(
  catalogue: DeclarationCatalogue,
  filter: VideoFilter,
  task?: TaskDeclaration | null,
): MetricCondition[] {
  const conditions = new Map<string, MetricCondition>();
  for (const key of metricFilterKeysIn(catalogue, filter)) {
    const spec = metricKeys(catalogue).get(key)!;
    const declared = task
      ? (spec.alias ? (task.queryAliases ?? []).some((a) => a.key === key) : true) && metricOf(task, spec.metric)
      : catalogue.allMetrics().find((m) => m.id === spec.metric);
    if (!declared) throw new ValidationError(`${key}: the run's task (${task!.label}) has no metric "${spec.metric}".`);
    const raw = filter[key];
    let value: number;
    if (spec.bound === "is") {
      const found =
        declared.scale.kind === "categorical"
          ? declared.scale.values.find((v) => v.label === raw || String(v.value) === raw)
          : undefined;
      if (!found) throw new ValidationError(`${key}: "${String(raw)}" is not a value of ${declared.label}.`);
      value = found.value;
    } else {
      value = Number(raw);
      const { min, max } = scaleBounds(declared.scale);
      if (!Number.isFinite(value) || value < min || value > max)
        throw new ValidationError(`${key}: ${String(raw)} is outside ${declared.label}'s ${min}–${max}.`);
    }
    const condition = conditions.get(spec.metric) ?? { metric: spec.metric };
    if (spec.bound !== "max") condition.min = condition.min === undefined ? value : Math.max(condition.min, value);
    if (spec.bound !== "min") condition.max = condition.max === undefined ? value : Math.min(condition.max, value);
    conditions.set(spec.metric, condition);
  }
  return [...conditions.values()];
}

/**
 * Checks the filter's category, its bounds and the sort against the task of the run the filter
 * reads (parsing accepted any task's); a mismatch is a ValidationError naming the field.
 */
export function checkFilterAgainstTask(
  catalogue: DeclarationCatalogue,
  filter: VideoFilter,
  task: TaskDeclaration,
  sort?: VideoSort,
): void {
  metricConditions(catalogue, filter, task);
  if (filter.category !== undefined) {
    const target = targetOf(task, filter.category);
    if (!target)
      throw new ValidationError(`category: the run's task (${task.label}) has no target "${filter.category}".`);
    const { min, max } = scaleBounds(target.scale);
    for (const key of ["categoryMin", "categoryMax"] as const) {
      const value = filter[key];
      if (value !== undefined && (value < min || value > max))
        throw new ValidationError(`${key}: ${value} is outside ${target.label}'s ${min}–${max}.`);
    }
  }
  if (sort !== undefined && !isFieldSort(sort) && sort !== DISPERSION_SORT && !metricOf(task, sort))
    throw new ValidationError(`sort: the run's task (${task.label}) has no metric "${sort}".`);
}

/** The filter reads the judge's values or other reviewers' (not just the caller's own review state). */
export function filterReadsValues(catalogue: DeclarationCatalogue, filter: VideoFilter): boolean {
  return (
    filter.category !== undefined ||
    metricFilterKeysIn(catalogue, filter).length > 0 ||
    filter.humanVerdict !== undefined ||
    filter.review === "disagreement" ||
    filter.unstable !== undefined
  );
}

/** Filters that need a judge run: without one (no run in the project) they match nothing. */
export function filterNeedsRun(catalogue: DeclarationCatalogue, filter: VideoFilter): boolean {
  return (
    filterReadsValues(catalogue, filter) ||
    filter.categoryMin !== undefined ||
    filter.categoryMax !== undefined ||
    filter.review !== undefined
  );
}

/** The query key a form uses for a metric's filter: the task's declared older key when it has one (links stay as they were), else the generic one. */
export function metricQueryKey(task: TaskDeclaration, metricId: string, which: MetricBound): string {
  return (
    (task.queryAliases ?? []).find((a) => a.metric === metricId && a.bound === which)?.key ??
    metricFilterKey(metricId, which)
  );
}
