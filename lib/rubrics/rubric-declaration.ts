/**
 * A rubric task's declaration (lib/task-modules/task-declaration.ts) from its definition, so everything downstream
 * (list columns and filters, queues, agreement, calibration, exports) reads a rubric task exactly as it reads a
 * built-in one. Plain data and pure functions: the browser builds the same declaration.
 */
import type {
  MetricDeclaration,
  PositiveRule,
  Scale,
  TargetDeclaration,
  TaskDeclaration,
} from "../task-modules/task-declaration";
import { rubricCalls } from "./rubric-calls";
import { rubricScope, type RubricCriterion, type RubricDefinition } from "./rubric-definition";

/** The pipeline id of a rubric task: its key is unique across projects. */
export function rubricPipelineId(key: number): string {
  return `rubric_${key}`;
}

/** A criterion's target id: prefixed with the task's key, so two rubrics' criteria never share an id in the registry. */
export function rubricTargetId(key: number, criterionId: string): string {
  return `r${key}_${criterionId}`;
}

/** The per-video metric of a criterion (the list's column, filter and sort). */
export function rubricMetricId(key: number, criterionId: string): string {
  return `r${key}_${criterionId}_v`;
}

/** The item kind of a rubric task whose subject is an item (its items' `kind`, and the task's subject kind). */
export function rubricItemKind(key: number): string {
  return `${rubricPipelineId(key)}_item`;
}

/** Is this subject kind a rubric task's item kind (its runs judge items, and the run form asks for an item set)? */
export function isRubricItemKind(kind: string): boolean {
  return /^rubric_\d+_item$/.test(kind);
}

/** A categorical criterion's labels are stored as their position, 0, 1, …; yes is 1 and no is 0. */
export function criterionScale(criterion: RubricCriterion): Scale {
  switch (criterion.type) {
    case "numeric":
      return { kind: "numeric", min: criterion.min, max: criterion.max, step: criterion.step ?? null };
    case "categorical":
      return { kind: "categorical", values: criterion.labels.map((l, value) => ({ value, label: l.label })) };
    case "boolean":
      return {
        kind: "categorical",
        values: [
          { value: 1, label: "yes" },
          { value: 0, label: "no" },
        ],
      };
  }
}

function positiveOf(criterion: RubricCriterion): PositiveRule & { label: string } {
  switch (criterion.type) {
    case "numeric":
      return {
        op: ">=",
        threshold: criterion.positiveAtLeast ?? criterion.presence?.threshold ?? (criterion.min + criterion.max) / 2,
        label: criterion.positiveLabel ?? (criterion.presence ? "present" : "high"),
      };
    case "categorical": {
      const index = criterion.positiveLabel
        ? criterion.labels.findIndex((l) => l.label.toLowerCase() === criterion.positiveLabel!.toLowerCase())
        : criterion.labels.length - 1;
      return { op: "==", value: index, label: criterion.labels[index]?.label ?? "positive" };
    }
    case "boolean":
      return { op: "==", value: 1, label: criterion.positiveLabel ?? "yes" };
  }
}

/** How a criterion's per-scope values become the video's; a single-scope criterion's value is its own. */
export function aggregationOf(criterion: RubricCriterion): "mean" | "max" | "min" | "majority" {
  if (criterion.aggregation) return criterion.aggregation;
  return criterion.type === "numeric" ? "mean" : "majority";
}

const SCOPE_WORDS = { key_frame: "key frames", cluster: "clusters" } as const;

export function rubricTaskDeclaration(key: number, definition: RubricDefinition): TaskDeclaration {
  const scope = rubricScope(definition);
  const calls = rubricCalls(definition);
  const perScope = scope === "key_frame" || scope === "cluster";
  const targets: TargetDeclaration[] = definition.criteria.map((criterion) => {
    const scale = criterionScale(criterion);
    return {
      id: rubricTargetId(key, criterion.id),
      label: criterion.name,
      definition: criterion.definition,
      scale,
      level:
        criterion.type === "numeric"
          ? "interval"
          : criterion.type === "categorical" && criterion.ordered
            ? "ordinal"
            : "nominal",
      higherIsBetter: criterion.higherIsBetter,
      scope,
      positive: positiveOf(criterion),
      ...(criterion.unstableAt !== undefined ? { unstableAt: criterion.unstableAt } : {}),
    };
  });
  const metrics: MetricDeclaration[] = definition.criteria.map((criterion, i) => {
    const target = targets[i]!;
    const aggregation = aggregationOf(criterion);
    const averaged = perScope && aggregation === "mean";
    const bounds = target.scale.kind === "numeric" ? target.scale : { min: 0, max: target.scale.values.length - 1 };
    const scale: Scale = averaged
      ? {
          kind: "numeric",
          min: criterion.type === "boolean" ? 0 : bounds.min,
          max: criterion.type === "boolean" ? 1 : bounds.max,
          step: null,
        }
      : target.scale;
    return {
      id: rubricMetricId(key, criterion.id),
      label: criterion.name,
      definition: criterion.definition,
      aggregation: perScope ? `${aggregation} over the video's ${SCOPE_WORDS[scope]}` : "the judge's value",
      scale,
      level: averaged ? "interval" : target.level,
      higherIsBetter: criterion.higherIsBetter,
      positive:
        averaged && target.positive.op === "=="
          ? { op: ">=", threshold: 0.5, label: target.positive.label }
          : target.positive,
    };
  });
  const withPresence = definition.criteria.filter((c) => c.type === "numeric" && c.presence);
  const first = withPresence[0];
  return {
    id: rubricPipelineId(key),
    label: definition.name,
    subject: definition.subject.kind === "item" ? rubricItemKind(key) : "video",
    targets,
    metrics,
    groupings: [],
    metricSteps: calls.map((c) => c.stepId),
    stepScopes: Object.fromEntries(calls.map((c) => [c.stepId, scope])),
    ...(first?.presence
      ? {
          presence: {
            of: withPresence.map((c) => rubricTargetId(key, c.id)),
            absentValue: first.presence.absentValue,
            judgeRule: "max over scopes >= t" as const,
            defaultThreshold: first.presence.threshold,
          },
        }
      : {}),
  };
}
