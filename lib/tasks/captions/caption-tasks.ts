/**
 * The caption judges' declarations (AnyCapEval style and content): what they score, on which scales, and
 * how their per-caption metrics are made. Results group by caption type, the items' `group`.
 */
import { CAPTION_CONTENT_TYPES, CAPTION_STYLE_TYPES } from "./caption-types";
import type { GroupingDeclaration, MetricDeclaration, TaskDeclaration } from "../../task-modules/task-declaration";

/** Caption types as the reference files give them; unknown types are kept on the items as they come. */
export const CAPTION_TYPE_GROUPING: GroupingDeclaration = {
  id: "caption_type",
  label: "Caption type",
  ofItem: true,
  values: [...CAPTION_STYLE_TYPES, ...CAPTION_CONTENT_TYPES].map((id) => ({
    id,
    label: id === "theme" ? "theme (the rubric's style)" : id,
  })),
};

const rubricScale = { kind: "numeric", min: 0, max: 4, step: 1 } as const;
const yesNo = {
  kind: "categorical",
  values: [
    { value: 1, label: "yes" },
    { value: 0, label: "no" },
  ],
} as const;
/** Seed 003's 3 is "comparable to the reference and no hallucination": the lowest good caption. */
const goodCaption = { op: ">=", threshold: 3, label: "good caption" } as const;

const yesNoMetric = (m: Pick<MetricDeclaration, "id" | "label" | "definition" | "aggregation">): MetricDeclaration => ({
  ...m,
  scale: yesNo,
  level: "nominal",
  higherIsBetter: false,
  positive: { op: "==", value: 1, label: m.label.toLowerCase() },
});

export const CAPTION_STYLE_TASK: TaskDeclaration = {
  id: "caption_style",
  label: "Caption style (seed 003 rubric, AnyCapEval style)",
  subject: "caption",
  targets: [
    {
      id: "style",
      label: "Style score",
      definition:
        "Seed 003's rubric score (0 very poor … 4 excellent) after FrameJury's length rules: a brief or detail caption whose word count is outside ±10% of the reference's, or a caption that breaks its instruction's own length restriction, keeps at most 1. A run setting can count the judge's own score instead.",
      scale: rubricScale,
      level: "ordinal",
      higherIsBetter: true,
      scope: "item",
      positive: goodCaption,
    },
    {
      id: "style_raw",
      label: "Judge's style score",
      definition: "The score the judge gave by seed 003's rubric, before FrameJury applied the length rules.",
      scale: rubricScale,
      level: "ordinal",
      higherIsBetter: true,
      scope: "item",
      positive: goodCaption,
      // A reviewer gives the caption's style score; the judge's raw score is compared, not re-judged.
      reviewable: false,
    },
  ],
  metrics: [
    {
      // Not "style": a metric id may not repeat a target id (the target is the per-caption score itself).
      id: "style_score",
      label: "Style",
      definition: "The caption's style score that counts (0–4): the style target's value.",
      aggregation:
        'The score after the length rules (default), or the judge\'s own score (run setting countedScore: "judge").',
      scale: rubricScale,
      level: "ordinal",
      higherIsBetter: true,
      positive: goodCaption,
    },
    yesNoMetric({
      id: "length_violation",
      label: "Length violation",
      definition: "Some length rule that applies to the caption failed.",
      aggregation: "1 when the ±10% rule (brief, detail) or the instruction's restriction failed, else 0.",
    }),
    yesNoMetric({
      id: "judge_broke_rule",
      label: "Judge broke the rule",
      definition: "The judge scored above the cap a failed length rule sets.",
      aggregation: "1 when the judge's score is above 1 and a length rule failed, else 0.",
    }),
  ],
  groupings: [CAPTION_TYPE_GROUPING],
  metricSteps: ["style_judge", "length_rules"],
  stepScopes: { style_judge: "item", length_rules: "item" },
};

export const CAPTION_CONTENT_TASK: TaskDeclaration = {
  id: "caption_content",
  label: "Caption content (AnyCapEval key points)",
  subject: "caption",
  targets: [
    {
      id: "key_point",
      label: "Key point",
      definition:
        'Does the caption state this key point correctly (1), or not at all or wrongly (0)? Scores carry the key point\'s 1-based index as their category, "kp:<n>".',
      scale: {
        kind: "categorical",
        values: [
          { value: 1, label: "hit" },
          { value: 0, label: "missed" },
        ],
      },
      level: "nominal",
      higherIsBetter: true,
      scope: "item",
      positive: { op: "==", value: 1, label: "hit" },
    },
  ],
  indexedTargets: [{ prefix: "kp:", targetId: "key_point" }],
  metrics: [
    {
      id: "key_points_hit",
      label: "Key points hit",
      definition: "How many of the caption's key points it states correctly.",
      aggregation: "The sum of the key points' 0/1 scores.",
      scale: { kind: "numeric", min: 0, max: 100, step: 1 },
      level: "ratio",
      higherIsBetter: true,
      positive: { op: ">=", threshold: 1, label: "some key point hit" },
    },
    {
      id: "key_points_total",
      label: "Key points",
      definition: "How many key points the caption's reference lists.",
      aggregation: "The number of key points checked.",
      scale: { kind: "numeric", min: 0, max: 100, step: 1 },
      level: "ratio",
      higherIsBetter: true,
      positive: { op: ">=", threshold: 1, label: "has key points" },
    },
    {
      id: "coverage",
      label: "Coverage",
      definition: "The share of the reference's key points the caption states correctly (0–1).",
      aggregation: "Key points hit / key points.",
      scale: { kind: "numeric", min: 0, max: 1, step: null },
      level: "ratio",
      higherIsBetter: true,
      positive: { op: ">=", threshold: 0.5, label: "covers half or more" },
    },
  ],
  groupings: [CAPTION_TYPE_GROUPING],
  metricSteps: ["key_points"],
  stepScopes: { key_points: "item" },
};
