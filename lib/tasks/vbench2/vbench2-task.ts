/**
 * The VBench-2.0 task's declaration: each judged question's yes/no is a target people check (one indexed target
 * per dimension: `material:q1`, `material:q2`, …), and each dimension's per-video value is a metric (1/0, a share
 * for Composition and the plot dimensions; no value when VBench gives -1).
 */
import type { MetricDeclaration, TargetDeclaration, TaskDeclaration } from "../../task-modules/task-declaration";
import { DIMENSIONS } from "./dimensions";
import { categoryOf, dimensionSlug, JUDGED_DIMENSIONS, VBENCH2_CATEGORIES } from "./vbench2-dimensions";

const yesNo = {
  kind: "categorical",
  values: [
    { value: 1, label: "yes" },
    { value: 0, label: "no" },
  ],
} as const;

const label = (dimension: string) => dimension.replace(/_/g, " ");
export const answerTargetId = (dimension: string) => `${dimensionSlug(dimension)}_answer`;

const targets: TargetDeclaration[] = JUDGED_DIMENSIONS.map((dimension) => ({
  id: answerTargetId(dimension),
  label: `${label(dimension)} question`,
  definition: `The answer to one of ${label(dimension)}'s questions about the video (VBench-2.0 asks each as yes or no; its code counts an answer containing "yes" as yes).`,
  scale: yesNo,
  level: "nominal",
  higherIsBetter: true,
  scope: "video",
  positive: { op: "==", value: 1, label: "yes" },
  groups: { dimension, category: categoryOf(dimension)! },
}));

const metrics: MetricDeclaration[] = JUDGED_DIMENSIONS.map((dimension) => ({
  id: dimensionSlug(dimension),
  label: label(dimension),
  definition: `The video's ${label(dimension)} value as VBench-2.0's evaluator computes it from the answers.`,
  aggregation: "VBench-2.0's per-video rule for the dimension (docs/tasks/vbench2.md); no value where VBench gives -1.",
  scale: { kind: "numeric", min: 0, max: 1, step: null },
  level: "interval",
  higherIsBetter: true,
  positive: { op: ">=", threshold: 0.5, label: "passes" },
}));

export const VBENCH2_TASK: TaskDeclaration = {
  id: "vbench2",
  label: "VBench-2.0 (12 VLM-judged dimensions)",
  subject: "video",
  targets,
  metrics,
  groupings: [
    { id: "dimension", label: "Dimension", values: JUDGED_DIMENSIONS.map((id) => ({ id, label: label(id) })) },
    { id: "category", label: "Category", values: Object.keys(VBENCH2_CATEGORIES).map((id) => ({ id, label: id })) },
  ],
  // Every step's output carries the judge's answers: blind review withholds them all.
  metricSteps: JUDGED_DIMENSIONS.flatMap((dimension) => DIMENSIONS[dimension].steps.map((step) => step.id)),
  stepScopes: Object.fromEntries(
    JUDGED_DIMENSIONS.flatMap((dimension) => DIMENSIONS[dimension].steps.map((step) => [step.id, "video" as const])),
  ),
  indexedTargets: JUDGED_DIMENSIONS.map((dimension) => ({
    prefix: `${dimensionSlug(dimension)}:q`,
    targetId: answerTargetId(dimension),
  })),
};
