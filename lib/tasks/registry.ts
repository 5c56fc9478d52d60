/**
 * Every judge task's declaration by pipeline id: the one place downstream code (lists, filters,
 * reviews, agreement, exports) learns what a run scored. Plain data, safe in the browser: it reads the
 * task folders' declarations (lib/generated/tasks/declarations.ts, from TASK_IDS in ./index.ts). Each
 * pipeline (lib/task-modules/installed-task-modules.ts) carries the same declaration as its `task` (a test checks).
 */
import { GENERATED_TASK_DECLARATIONS } from "../generated/tasks/declarations";
import type { MetricDeclaration, QueryAlias, TargetDeclaration, TaskDeclaration } from "./task-declaration";
import type { TaskDeclarations } from "./task-module";
import { DeclarationCatalogue, UnknownTaskError } from "../task-modules/declaration-catalogue";

/** The built-in tasks' declarations: one catalogue for the life of the process (or the browser page). */
export const BUILT_IN_DECLARATIONS = new DeclarationCatalogue(GENERATED_TASK_DECLARATIONS);

export const TASKS: readonly TaskDeclaration[] = GENERATED_TASK_DECLARATIONS.flatMap((folder) => folder.tasks);

/** Every registered task folder's declarations, in TASK_IDS order (then those tests register). */
export const TASK_FOLDERS: readonly TaskDeclarations[] = [...GENERATED_TASK_DECLARATIONS];

/** Bumped whenever a test registers or takes out declarations, so what is built from TASKS is rebuilt. */
let registryVersion = 0;

/**
 * Adds a task folder's declarations while a test runs (the toy task proves a task is one folder); the
 * returned function takes them out again.
 */
export function registerTaskDeclarations(folder: TaskDeclarations): () => void {
  const tasks = TASKS as TaskDeclaration[];
  for (const task of folder.tasks)
    if (tasks.some((t) => t.id === task.id)) throw new Error(`Task "${task.id}" is already registered.`);
  tasks.push(...folder.tasks);
  (TASK_FOLDERS as TaskDeclarations[]).push(folder);
  registryVersion++;
  return () => {
    for (const task of folder.tasks) tasks.splice(tasks.indexOf(task), 1);
    (TASK_FOLDERS as TaskDeclarations[]).splice(TASK_FOLDERS.indexOf(folder), 1);
    registryVersion++;
  };
}

/**
 * `build`, run once per state of the registry: the same value while the declarations are unchanged (a
 * schema built from them keeps its identity), rebuilt after a test registers a task or takes it out.
 */
/**
 * The task folders one project sees: every folder that belongs to no project (the built-in tasks) and those of
 * its own (a rubric task's folder carries its project). A list rendered for a project's page reads this, never
 * TASK_FOLDERS: a process registers every project's rubric tasks (the server, and the browser bundle's server
 * render across requests), so the full list would name other projects' tasks and differ between server and browser.
 */
export function projectTaskFolders(projectId: string): TaskDeclarations[] {
  return TASK_FOLDERS.filter((folder) => folder.projectId === undefined || folder.projectId === projectId);
}

/** The tasks one project sees (see projectTaskFolders), in registry order. */
export function projectTasks(projectId: string): TaskDeclaration[] {
  return projectTaskFolders(projectId).flatMap((folder) => folder.tasks);
}

export function memoByTaskRegistry<T>(build: () => T): () => T {
  let built: { version: number; value: T } | null = null;
  return () => {
    if (built?.version !== registryVersion) built = { version: registryVersion, value: build() };
    return built.value;
  };
}

/**
 * The id of a reviewed metric (a metric people give their own value for, e.g. a verdict), as a type: any
 * declared metric's id, so the registry names no task (each task exports its own ids' union for its code).
 */
export type ReviewedMetricId = string;

export { UnknownTaskError };

export function taskOf(pipelineId: string): TaskDeclaration {
  const task = TASKS.find((t) => t.id === pipelineId);
  if (!task) throw new UnknownTaskError(`No judge task is declared for pipeline "${pipelineId}".`);
  return task;
}

/** The task of a pipeline, or null for a pipeline no task declares (a page then shows codes without names). */
export function findTask(pipelineId: string | null | undefined): TaskDeclaration | null {
  return TASKS.find((t) => t.id === pipelineId) ?? null;
}

/** Pipelines whose subject is the video itself: the video list's scores come from one of their runs. */
export function videoSubjectPipelineIds(): string[] {
  return TASKS.filter((t) => t.subject === "video").map((t) => t.id);
}

/** Every declared target of every task (for parsing a query before its run is known). */
export function allTargets(): TargetDeclaration[] {
  return TASKS.flatMap((t) => t.targets);
}

export function allTargetIds(): string[] {
  return [...new Set(allTargets().map((target) => target.id))];
}

/** Every declared metric, by id, across tasks (the first declaration of an id wins for parsing). */
export function allMetrics(): MetricDeclaration[] {
  const byId = new Map<string, MetricDeclaration>();
  for (const task of TASKS) for (const metric of task.metrics) if (!byId.has(metric.id)) byId.set(metric.id, metric);
  return [...byId.values()];
}

/** Every task's legacy query keys. */
export function allQueryAliases(): QueryAlias[] {
  return TASKS.flatMap((t) => t.queryAliases ?? []);
}

export function targetOf(task: TaskDeclaration, id: string): TargetDeclaration | undefined {
  return task.targets.find((t) => t.id === id);
}

export function metricOf(task: TaskDeclaration, id: string): MetricDeclaration | undefined {
  return task.metrics.find((m) => m.id === id);
}
