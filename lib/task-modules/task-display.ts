/**
 * How pages show a task's codes and values, read from its declaration: the legend's sections, a
 * code's name and definition, a subject's summary as declared metric values, a heat-map cell's
 * colour. Pure and browser-safe, so the score panel, heat map, review screen and run page share
 * one reading instead of naming a task's categories or metrics.
 */
import { formatScore } from "../format/numbers";
import type { DeclarationCatalogue } from "./declaration-catalogue";
import type { RunResultsLink } from "./task-module";
import {
  binariseValue,
  formatValue,
  isYesNoScale,
  scaleBounds,
  type MetricDeclaration,
  type TargetDeclaration,
  type TargetScope,
  type TaskDeclaration,
} from "./task-declaration";

/**
 * A subject's stored summary as the API returns it (run_video.summary): the pipeline's own JSON,
 * read through the task's metrics (summaryMetricValues) rather than by field name. `complete` says
 * whether every expected score was there.
 */
export type SubjectSummary = { complete?: boolean | null } & Record<string, unknown>;

/** Declared metric values of a summary, by metric id: numbers, a boolean as 1/0, anything else null. */
export function summaryMetricValues(
  task: Pick<TaskDeclaration, "metrics">,
  summary: SubjectSummary | null | undefined,
): Record<string, number | null> {
  const values: Record<string, number | null> = {};
  for (const metric of task.metrics) {
    const raw = summary?.[metric.summaryKey ?? metric.id];
    values[metric.id] =
      typeof raw === "boolean" ? (raw ? 1 : 0) : typeof raw === "number" && Number.isFinite(raw) ? raw : null;
  }
  return values;
}

/** What a code means: the target's or metric's name and definition, or null for an unknown code. */
export interface CodeMeaning {
  id: string;
  label: string;
  definition: string;
}

export function meaningOf(
  task: Pick<TaskDeclaration, "targets" | "metrics"> | null | undefined,
  id: string,
): CodeMeaning | null {
  const found = task?.targets.find((t) => t.id === id) ?? task?.metrics.find((m) => m.id === id);
  return found ? { id: found.id, label: found.label, definition: found.definition } : null;
}

/** One section of a legend or heat map: a value of the task's first grouping of targets and its targets, in declared order. */
export interface TargetSection {
  id: string;
  label: string;
  targets: TargetDeclaration[];
}

/**
 * The task's targets by its first declared grouping (hallucination: static, dynamic, prompt), in
 * the grouping's order; targets outside every group value come last under "Other". A grouping no
 * target belongs to (caption type groups the items, not the targets) gives one section.
 */
export function targetSections(task: Pick<TaskDeclaration, "targets" | "groupings">): TargetSection[] {
  const grouping = task.groupings.find((g) => task.targets.some((t) => t.groups?.[g.id] !== undefined));
  if (!grouping) return task.targets.length ? [{ id: "all", label: "Targets", targets: [...task.targets] }] : [];
  const sections: TargetSection[] = grouping.values.map((value) => ({
    id: value.id,
    label: value.label,
    targets: task.targets.filter((t) => t.groups?.[grouping.id] === value.id),
  }));
  const rest = task.targets.filter((t) => !grouping.values.some((v) => v.id === t.groups?.[grouping.id]));
  if (rest.length) sections.push({ id: "other", label: "Other", targets: rest });
  return sections.filter((s) => s.targets.length > 0);
}

/** Where in the subject a value sits, in words: "key frame 2", "cluster 1", "whole video", "item 3". */
export function scopeLabel(scope: TargetScope, scopeIndex: number): string {
  switch (scope) {
    case "key_frame":
      return `key frame ${scopeIndex + 1}`;
    case "cluster":
      return `cluster ${scopeIndex + 1}`;
    case "video":
      return "whole video";
    case "item":
      return `item ${scopeIndex + 1}`;
  }
}

/** A heat-map cell: how strongly to tint it (0–5/6, never opaque, so the number stays legible) and whether it is the positive class. */
export interface HeatCell {
  alpha: number;
  positive: boolean;
}

/**
 * The tint grows toward the worse end of the target's scale (the top for a hallucination
 * intensity, the bottom when higher is better); the positive class comes from the declared rule.
 */
export function heatCell(
  target: Pick<TargetDeclaration, "scale" | "higherIsBetter" | "positive">,
  value: number,
): HeatCell {
  const { min, max } = scaleBounds(target.scale);
  const span = max - min;
  const position = span > 0 ? Math.min(1, Math.max(0, (value - min) / span)) : 0;
  const badness = target.higherIsBetter ? 1 - position : position;
  return { alpha: (badness * 5) / 6, positive: binariseValue(target.positive, value) === 1 };
}

/** What the heat map shows in its cells: the judge's values, the caller's own, or the caller's minus the judge's. */
export type HeatMapView = "judge" | "mine" | "difference";

/** One cell as shown: its number, its tint and hue, both from the same value, so colour and number never disagree. */
export interface HeatCellShown {
  /** The number in the cell; "" when the view has nothing there (no value of yours). */
  text: string;
  /** "score": tinted toward the bad end of the scale; "difference": tinted by how far yours is from the judge's. */
  hue: "score" | "difference";
  alpha: number;
  /** Whether the value shown is in the positive class (false in the difference view). */
  positive: boolean;
}

/**
 * A heat-map cell in a view. Judge: the judge's value and its tint. Mine: the caller's own value and
 * its tint, blank without one. Difference: mine − judge with a sign, tinted by its size over the scale's
 * span, blank without a value of yours.
 */
export function heatCellShown(
  target: Pick<TargetDeclaration, "scale" | "higherIsBetter" | "positive">,
  view: HeatMapView,
  judge: number,
  mine: number | null,
): HeatCellShown {
  // Numbers as every score reads (lib/format/numbers formatScore): a mean of 5.125 reads "5.13" here too.
  if (view === "judge") return { text: formatScore(judge), hue: "score", ...heatCell(target, judge) };
  if (mine === null) return { text: "", hue: view === "mine" ? "score" : "difference", alpha: 0, positive: false };
  if (view === "mine") return { text: formatScore(mine), hue: "score", ...heatCell(target, mine) };
  const { min, max } = scaleBounds(target.scale);
  const difference = mine - judge;
  const size = max > min ? Math.min(1, Math.abs(difference) / (max - min)) : difference === 0 ? 0 : 1;
  const magnitude = formatScore(Math.abs(difference));
  const text = /^[0.]+$/.test(magnitude) ? "0" : `${difference > 0 ? "+" : "−"}${magnitude}`;
  return { text, hue: "difference", alpha: (size * 5) / 6, positive: false };
}

/** A label inside running text: "Overall" reads "overall", while codes such as "I" or "S" stay as they are. */
export function inlineLabel(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label;
}

/** A metric's scale for people: "yes/no", "0–100, higher is better". */
export function scaleHint(metric: Pick<MetricDeclaration, "scale" | "higherIsBetter">): string {
  if (metric.scale.kind === "categorical")
    return isYesNoScale(metric.scale) ? "yes/no" : metric.scale.values.map((v) => v.label).join("/");
  return `${metric.scale.min}–${metric.scale.max}${metric.higherIsBetter ? ", higher is better" : ""}`;
}

/** "I 1 · S 2 · D 3 · overall 66 · hallucination no": a subject's metrics in declared order. */
export function metricsLine(
  task: Pick<TaskDeclaration, "metrics">,
  values: Record<string, number | null>,
): { id: string; label: string; text: string }[] {
  return task.metrics.map((metric) => ({
    id: metric.id,
    label: inlineLabel(metric.label),
    text: formatValue(metric, values[metric.id] ?? null),
  }));
}

/** The options of a categorical control in words: a yes/no verdict reads "yes, hallucination" / "no hallucination". */
export function choiceLabels(
  metric: Pick<MetricDeclaration, "scale" | "positive">,
): { value: number; label: string }[] {
  if (metric.scale.kind !== "categorical") return [];
  const yesNo = isYesNoScale(metric.scale);
  return metric.scale.values.map((v) => ({
    value: v.value,
    label: yesNo ? (v.value === 1 ? `yes, ${metric.positive.label}` : `no ${metric.positive.label}`) : v.label,
  }));
}

/** Where a run's task shows that run's results (its folder's `runResultsLinks`); null when none. */
export function runResultsLinkOf(catalogue: DeclarationCatalogue, pipelineId: string): RunResultsLink | null {
  for (const folder of catalogue.folders) {
    const link = folder.runResultsLinks?.[pipelineId];
    if (link) return link;
  }
  return null;
}

/** Every pipeline's short name a project sees (its label without the parenthesised source), for text about all of them. */
export function pipelineNames(catalogue: DeclarationCatalogue): string[] {
  return catalogue.tasks.map((task) => task.label.replace(/\s*\([^)]*\)\s*$/, ""));
}

/**
 * The catalogue's tasks' item nouns as one phrase, for counts of items of any task: "caption or question" and
 * "captions and questions"; "item" and "items" when no task names its items. (A project's own tasks name none.)
 */
export function itemNounPhrase(catalogue: DeclarationCatalogue): { one: string; many: string } {
  const nouns = catalogue.folders.flatMap((folder) => folder.itemNouns ?? []);
  if (nouns.length === 0) return { one: "item", many: "items" };
  const join = (words: string[], last: string) =>
    words.length === 1 ? words[0]! : `${words.slice(0, -1).join(", ")} ${last} ${words.at(-1)}`;
  return {
    one: join(
      nouns.map((n) => n.one),
      "or",
    ),
    many: join(
      nouns.map((n) => n.many),
      "and",
    ),
  };
}
