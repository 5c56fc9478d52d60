/**
 * Per-video hallucination scores of the Sora Detector pipeline: S (static), D (dynamic), I (prompt
 * inconsistency), all on the judge's 0–10 scale, and the overall score 100 − 2·I − 4·S − 4·D (0 to 100,
 * higher is better), plus a yes/no verdict.
 *
 * S from the static scores x[k][c] (key frame k, category c); D likewise over clusters:
 * - "mean-max" (default): the mean over categories of each category's worst key frame. A video is as bad
 *   in a category as its worst frame, and every category weighs the same.
 * - "max-max": the single worst score anywhere.
 * - "mean-mean": the mean over categories of each category's mean over key frames.
 *
 * The verdict rule is a setting:
 * - on "max_category" (default, threshold 5): yes when I, or any category's aggregate (under the
 *   default mode: any single key frame's or cluster's score), is at least the threshold, i.e. the judge
 *   saw at least a moderate hallucination of some kind. The overall score averages one severe category
 *   away, so it is a poor yes/no signal.
 * - on "overall" (default threshold 60): yes when overall < threshold.
 *
 * Missing values are never filled in. Aggregates use the values that exist and the summary says
 * `complete: false` with the count of missing inputs; a part with no values at all is null, and so is
 * overall then. The verdict is null when it cannot be decided: for "overall" whenever overall is null;
 * for "max_category" when nothing reached the threshold but S, D or I is unknown (a value that reached
 * it is a finding whatever else is missing).
 */
import { z } from "zod";
import {
  DYNAMIC_CATEGORY_IDS,
  INCONSISTENCY_CATEGORY,
  STATIC_CATEGORY_IDS,
  type DynamicCategoryId,
  type StaticCategoryId,
} from "./schemas";

export const AGGREGATION_MODES = ["mean-max", "max-max", "mean-mean"] as const;
export type AggregationMode = (typeof AGGREGATION_MODES)[number];

export const VERDICT_BASES = ["max_category", "overall"] as const;
export type VerdictBasis = (typeof VERDICT_BASES)[number];

const DEFAULT_THRESHOLDS: Record<VerdictBasis, number> = { max_category: 5, overall: 60 };
const THRESHOLD_RANGES: Record<VerdictBasis, [number, number]> = { max_category: [0, 10], overall: [0, 100] };

export const hallucinationSummarySettingsSchema = z
  .object({
    aggregation: z.enum(AGGREGATION_MODES).default("mean-max"),
    verdict: z
      .object({
        on: z.enum(VERDICT_BASES).default("max_category"),
        /** max_category: hallucination when a score ≥ threshold (0–10). overall: when overall < threshold (0–100). */
        threshold: z.number().finite().optional(),
      })
      .prefault({}),
  })
  .transform(({ aggregation, verdict }, context) => {
    const threshold = verdict.threshold ?? DEFAULT_THRESHOLDS[verdict.on];
    const [low, high] = THRESHOLD_RANGES[verdict.on];
    if (threshold < low || threshold > high) {
      context.addIssue({
        code: "custom",
        path: ["verdict", "threshold"],
        message: `must be from ${low} to ${high} when the verdict is on ${verdict.on}`,
        input: threshold,
      });
    }
    return { aggregation, verdict: { on: verdict.on, threshold } };
  });

export type HallucinationSummarySettings = z.output<typeof hallucinationSummarySettingsSchema>;
export type HallucinationSummarySettingsInput = z.input<typeof hallucinationSummarySettingsSchema>;

/**
 * What an alignment may tune on train for a reviewed metric (lib/alignment): the verdict over every aggregation,
 * each basis and its thresholds (1–10 on the worst category, 30–90 in steps of 5 on the overall); the overall over
 * every aggregation (its own positive threshold is tuned on its values). None of them changes a request.
 */
export function hallucinationAlignmentSettings(metricId: string): HallucinationSummarySettingsInput[] {
  if (metricId === "overall") return AGGREGATION_MODES.map((aggregation) => ({ aggregation }));
  if (metricId !== "verdict") return [];
  const worst = Array.from({ length: 10 }, (_, i) => ({ on: "max_category" as const, threshold: i + 1 }));
  const overall = Array.from({ length: 13 }, (_, i) => ({ on: "overall" as const, threshold: 30 + 5 * i }));
  return AGGREGATION_MODES.flatMap((aggregation) =>
    [...worst, ...overall].map((verdict) => ({ aggregation, verdict })),
  );
}

/** Per key frame (static) or cluster (dynamic): its category scores, or null when the step gave none. */
export type CategoryScores<Id extends string> = Partial<Record<Id, number | null>> | null;

export interface HallucinationScoreInputs {
  /** One entry per key frame, in order. */
  static: readonly CategoryScores<StaticCategoryId>[];
  /** One entry per key-frame cluster, in order. */
  dynamic: readonly CategoryScores<DynamicCategoryId>[];
  inconsistency: number | null;
}

export interface HallucinationSummary {
  S: number | null;
  D: number | null;
  I: number | null;
  overall: number | null;
  hallucination: boolean | null;
  /** Every expected score was there. */
  complete: boolean;
  /** Key frames and clusters with no or only some category scores, plus 1 for a missing I. */
  missingInputs: number;
  missing: { keyFrames: number[]; clusters: number[]; inconsistency: boolean };
  /** Each category's aggregate over key frames (max, or mean under "mean-mean"); null when no key frame scored it. */
  staticCategories: Record<StaticCategoryId, number | null>;
  dynamicCategories: Record<DynamicCategoryId, number | null>;
  /** The largest of I and the category aggregates, which the max_category verdict compares. */
  worst: { category: string; value: number } | null;
  settings: HallucinationSummarySettings;
}

function checkScore(value: number, where: string): number {
  if (!Number.isFinite(value) || value < 0 || value > 10)
    throw new RangeError(`${where}: ${value} is not a score from 0 to 10.`);
  return value;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function aggregatePart<Id extends string>(
  entries: readonly CategoryScores<Id>[],
  categoryIds: readonly Id[],
  mode: AggregationMode,
  label: string,
): { value: number | null; perCategory: Record<Id, number | null>; missingEntries: number[] } {
  const missingEntries: number[] = [];
  const columns = new Map<Id, number[]>(categoryIds.map((id) => [id, []]));
  entries.forEach((entry, index) => {
    let complete = entry !== null;
    for (const id of categoryIds) {
      const value = entry?.[id];
      if (value === undefined || value === null) complete = false;
      else columns.get(id)!.push(checkScore(value, `${label} ${index + 1}, ${id}`));
    }
    if (!complete) missingEntries.push(index);
  });
  const perCategory = {} as Record<Id, number | null>;
  for (const id of categoryIds) {
    const column = columns.get(id)!;
    perCategory[id] = column.length === 0 ? null : mode === "mean-mean" ? mean(column) : Math.max(...column);
  }
  const known = categoryIds.map((id) => perCategory[id]).filter((value): value is number => value !== null);
  const value = known.length === 0 ? null : mode === "max-max" ? Math.max(...known) : mean(known);
  return { value, perCategory, missingEntries };
}

/** S, D, I, overall and the verdict for one video. */
export function summarizeHallucinationScores(
  inputs: HallucinationScoreInputs,
  settingsInput: HallucinationSummarySettingsInput = {},
): HallucinationSummary {
  const settings = hallucinationSummarySettingsSchema.parse(settingsInput);
  const staticPart = aggregatePart(inputs.static, STATIC_CATEGORY_IDS, settings.aggregation, "key frame");
  const dynamicPart = aggregatePart(inputs.dynamic, DYNAMIC_CATEGORY_IDS, settings.aggregation, "cluster");
  const I = inputs.inconsistency === null ? null : checkScore(inputs.inconsistency, "inconsistency");
  const S = staticPart.value;
  const D = dynamicPart.value;
  const overall = S === null || D === null || I === null ? null : 100 - 2 * I - 4 * S - 4 * D;

  const candidates: { category: string; value: number }[] = [];
  if (I !== null) candidates.push({ category: INCONSISTENCY_CATEGORY, value: I });
  for (const id of STATIC_CATEGORY_IDS) {
    const value = staticPart.perCategory[id];
    if (value !== null) candidates.push({ category: id, value });
  }
  for (const id of DYNAMIC_CATEGORY_IDS) {
    const value = dynamicPart.perCategory[id];
    if (value !== null) candidates.push({ category: id, value });
  }
  // Ties keep the earlier entry, so the report names I before s1 before d1.
  const worst = candidates.reduce<{ category: string; value: number } | null>(
    (best, next) => (best === null || next.value > best.value ? next : best),
    null,
  );

  const { on, threshold } = settings.verdict;
  let hallucination: boolean | null;
  if (on === "overall") hallucination = overall === null ? null : overall < threshold;
  else if (worst !== null && worst.value >= threshold) hallucination = true;
  else hallucination = S === null || D === null || I === null ? null : false;

  const missingInputs = staticPart.missingEntries.length + dynamicPart.missingEntries.length + (I === null ? 1 : 0);
  return {
    S,
    D,
    I,
    overall,
    hallucination,
    complete: missingInputs === 0 && overall !== null,
    missingInputs,
    missing: { keyFrames: staticPart.missingEntries, clusters: dynamicPart.missingEntries, inconsistency: I === null },
    staticCategories: staticPart.perCategory,
    dynamicCategories: dynamicPart.perCategory,
    worst,
    settings,
  };
}

export interface ScoreRow {
  stepId: string;
  scopeIndex: number;
  category: string;
  value: number;
}

/**
 * Builds the inputs from stored score rows. Key frames and clusters without rows come out as null,
 * so they count as missing; rows of other steps or categories are ignored.
 */
export function hallucinationInputsFromScoreRows(
  rows: readonly ScoreRow[],
  shape: {
    keyFrameCount: number;
    clusterCount: number;
    stepIds?: { static?: string; dynamic?: string; inconsistency?: string };
  },
): HallucinationScoreInputs {
  const stepIds = {
    static: "static_hallucination",
    dynamic: "dynamic_hallucination",
    inconsistency: "inconsistency",
    ...shape.stepIds,
  };
  const staticScores: Partial<Record<StaticCategoryId, number>>[] = [];
  const dynamicScores: Partial<Record<DynamicCategoryId, number>>[] = [];
  let inconsistency: number | null = null;
  const isStatic = (category: string): category is StaticCategoryId =>
    (STATIC_CATEGORY_IDS as readonly string[]).includes(category);
  const isDynamic = (category: string): category is DynamicCategoryId =>
    (DYNAMIC_CATEGORY_IDS as readonly string[]).includes(category);
  for (const row of rows) {
    if (
      row.stepId === stepIds.static &&
      isStatic(row.category) &&
      row.scopeIndex >= 0 &&
      row.scopeIndex < shape.keyFrameCount
    ) {
      (staticScores[row.scopeIndex] ??= {})[row.category] = row.value;
    } else if (
      row.stepId === stepIds.dynamic &&
      isDynamic(row.category) &&
      row.scopeIndex >= 0 &&
      row.scopeIndex < shape.clusterCount
    ) {
      (dynamicScores[row.scopeIndex] ??= {})[row.category] = row.value;
    } else if (row.stepId === stepIds.inconsistency && row.category === INCONSISTENCY_CATEGORY) {
      inconsistency = row.value;
    }
  }
  return {
    static: Array.from({ length: shape.keyFrameCount }, (_, index) => staticScores[index] ?? null),
    dynamic: Array.from({ length: shape.clusterCount }, (_, index) => dynamicScores[index] ?? null),
    inconsistency,
  };
}
