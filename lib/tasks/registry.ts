/**
 * The built-in tasks' declarations as one declaration catalogue (lib/task-modules/declaration-catalogue.ts), built
 * once from the task folders' declarations (lib/generated/tasks/declarations.ts, from TASK_IDS in ./index.ts). Plain
 * data, safe in the browser. A project's catalogue adds its rubric tasks (lib/rubrics/project-catalogue.ts); the
 * server's catalogue carries each pipeline too (lib/task-modules/task-catalogue.ts), whose `task` is the same
 * declaration (a test checks).
 */
import { GENERATED_TASK_DECLARATIONS } from "../generated/tasks/declarations";
import { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import type { MetricDeclaration, TargetDeclaration, TaskDeclaration } from "./task-declaration";

/** The built-in tasks' declarations: one catalogue for the life of the process (or the browser page). */
export const BUILT_IN_DECLARATIONS = new DeclarationCatalogue(GENERATED_TASK_DECLARATIONS);

/**
 * The id of a reviewed metric (a metric people give their own value for, e.g. a verdict), as a type: any
 * declared metric's id, so the registry names no task (each task exports its own ids' union for its code).
 */
export type ReviewedMetricId = string;

export function targetOf(task: TaskDeclaration, id: string): TargetDeclaration | undefined {
  return task.targets.find((t) => t.id === id);
}

export function metricOf(task: TaskDeclaration, id: string): MetricDeclaration | undefined {
  return task.metrics.find((m) => m.id === id);
}
