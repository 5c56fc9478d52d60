/**
 * The hallucination task's declaration (Sora Detector, seed 000): what it scores, on which scales,
 * and how its per-video metrics are made. The legend, review controls, disagreement and agreement
 * read these; the values match what the pipeline and lib/tasks/hallucination/scores.ts produce.
 */
import type { MetricDeclaration, TargetDeclaration, TaskDeclaration } from "../../task-modules/task-declaration";
import { DYNAMIC_HALLUCINATION_CATEGORIES, INCONSISTENCY_CATEGORY, STATIC_HALLUCINATION_CATEGORIES } from "./schemas";

const intensity = { kind: "numeric", min: 0, max: 10, step: null } as const;
/** A judge's score of 5 or more is a moderate hallucination: the verdict's default rule too. */
const present = { op: ">=", threshold: 5, label: "hallucination" } as const;

const categoryTarget = (
  category: { id: string; name: string; description: string },
  scope: "key_frame" | "cluster",
  kind: "static" | "dynamic",
): TargetDeclaration => ({
  id: category.id,
  label: category.name,
  definition: category.description,
  scale: intensity,
  level: "ordinal",
  higherIsBetter: false,
  scope,
  positive: present,
  disagreementGap: 2,
  groups: { kind },
});

export const HALLUCINATION_TARGETS: readonly TargetDeclaration[] = [
  ...STATIC_HALLUCINATION_CATEGORIES.map((c) => categoryTarget(c, "key_frame", "static")),
  ...DYNAMIC_HALLUCINATION_CATEGORIES.map((c) => categoryTarget(c, "cluster", "dynamic")),
  {
    id: INCONSISTENCY_CATEGORY,
    label: "Prompt inconsistency",
    definition:
      "How far the video departs from its prompt: the judge compares the prompt with its own summary of the video (0 consistent, 10 unrelated).",
    scale: intensity,
    level: "ordinal",
    higherIsBetter: false,
    scope: "video",
    positive: present,
    disagreementGap: 2,
    groups: { kind: "prompt" },
  },
];

const metric = (
  m: Omit<MetricDeclaration, "scale" | "level" | "higherIsBetter" | "positive" | "disagreementGap">,
): MetricDeclaration => ({
  ...m,
  scale: intensity,
  level: "ordinal",
  higherIsBetter: false,
  positive: present,
  disagreementGap: 2,
  sweep: true,
});

export const HALLUCINATION_METRICS: readonly MetricDeclaration[] = [
  metric({
    id: "I",
    label: "I",
    definition: "Prompt inconsistency (0–10).",
    aggregation: "The inconsistency step's score.",
  }),
  metric({
    id: "S",
    label: "S",
    definition: "Static hallucination (0–10), from the key frames' s1–s10 scores.",
    aggregation:
      "By the run's aggregation: mean over categories of each category's worst key frame (default), the worst score anywhere, or the mean of means.",
  }),
  metric({
    id: "D",
    label: "D",
    definition: "Dynamic hallucination (0–10), from the clusters' d1–d9 scores.",
    aggregation: "As S, over clusters and d1–d9.",
  }),
  {
    id: "overall",
    label: "Overall",
    definition: "Sora Detector's overall score: 100 − 2·I − 4·S − 4·D (higher is better).",
    aggregation: "100 − 2·I − 4·S − 4·D; null when S, D or I is unknown.",
    reviewed: true,
    sweep: true,
    scale: { kind: "numeric", min: 0, max: 100, step: null },
    level: "interval",
    higherIsBetter: true,
    positive: { op: "<", threshold: 60, label: "hallucination" },
    disagreementGap: 10,
  },
  {
    id: "verdict",
    label: "Hallucination",
    definition:
      "Does the video hallucinate? Yes when I or any category reaches the threshold (default), or when the overall is below its threshold.",
    aggregation: "The run's verdict rule over the metrics above.",
    reviewed: true,
    // The stored summary (HallucinationSummary) carries the verdict as the boolean `hallucination`.
    summaryKey: "hallucination",
    scale: {
      kind: "categorical",
      values: [
        { value: 1, label: "yes" },
        { value: 0, label: "no" },
      ],
    },
    level: "nominal",
    higherIsBetter: false,
    positive: { op: "==", value: 1, label: "hallucination" },
    disagreementGap: 1,
  },
];

export const HALLUCINATION_TASK: TaskDeclaration = {
  id: "hallucination",
  label: "Hallucination (Sora Detector knowledge graphs)",
  subject: "video",
  targets: HALLUCINATION_TARGETS,
  metrics: HALLUCINATION_METRICS,
  verdict: {
    metricId: "verdict",
    rule: "Hallucination when I or any category's aggregate is at least 5 (default), or when the overall is below 60.",
  },
  groupings: [
    {
      id: "kind",
      label: "Kind",
      values: [
        { id: "static", label: "Static (per key frame)" },
        { id: "dynamic", label: "Dynamic (per cluster)" },
        { id: "prompt", label: "Prompt consistency" },
      ],
    },
  ],
  // The video list's query keys from before metrics were generic (`sMin` = `min.S`, `verdict=yes` = `is.verdict=yes`).
  queryAliases: [
    ...(["S", "D", "I"] as const).flatMap((m) => [
      { key: `${m.toLowerCase()}Min`, metric: m, bound: "min" as const },
      { key: `${m.toLowerCase()}Max`, metric: m, bound: "max" as const },
    ]),
    { key: "overallMin", metric: "overall", bound: "min" },
    { key: "overallMax", metric: "overall", bound: "max" },
    { key: "verdict", metric: "verdict", bound: "is" },
  ],
  metricSteps: ["static_hallucination", "dynamic_hallucination", "inconsistency"],
  stepScopes: {
    static_kg: "key_frame",
    dynamic_kg: "cluster",
    video_summary: "video",
    inconsistency: "video",
    static_hallucination: "key_frame",
    dynamic_hallucination: "cluster",
  },
  sweepWorstTarget: true,
  // T2VHaluBench's annotators list the categories present in a video ("s7; d6, d5"); its prompt-consistency
  // label is the inconsistency target's presence. Absent means a score of 0; the judge's 5 ("moderate") means present.
  presence: {
    of: HALLUCINATION_TARGETS.map((t) => t.id),
    absentValue: 0,
    judgeRule: "max over scopes >= t",
    defaultThreshold: 5,
  },
  // The agreement report's request parameters from before thresholds were declared.
  thresholdParams: [
    { key: "threshold", ids: HALLUCINATION_TARGETS.map((t) => t.id) },
    { key: "overallThreshold", ids: ["overall"] },
  ],
};
