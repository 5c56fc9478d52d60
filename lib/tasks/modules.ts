/**
 * The registered tasks' server modules (lib/generated/tasks/modules.ts, from TASK_IDS), and every
 * pipeline the engine can run, by id. Server only: a module pulls in its pipelines' prompts and parsers.
 */
import type { RegisteredPipeline } from "../judge/engine/pipeline";
import { GENERATED_TASK_MODULES } from "../generated/tasks/modules";
import type { TaskModule } from "./task-module";

/** Every registered task module; tests add a toy one with registerTaskModule. */
export const TASK_MODULES: readonly TaskModule[] = [...GENERATED_TASK_MODULES];

/** Every pipeline the engine can run, by id. */
export const PIPELINES: Record<string, RegisteredPipeline> = Object.fromEntries(TASK_MODULES.flatMap((task) => task.pipelines.map((pipeline) => [pipeline.id, pipeline])));

/**
 * Adds a task module while a test runs (the toy task proves a task is one folder); the returned function
 * takes it out again. Its declarations are registered separately (registerTaskDeclarations).
 */
export function registerTaskModule(task: TaskModule): () => void {
  if (TASK_MODULES.some((t) => t.id === task.id)) throw new Error(`Task "${task.id}" is already registered.`);
  (TASK_MODULES as TaskModule[]).push(task);
  for (const pipeline of task.pipelines) PIPELINES[pipeline.id] = pipeline;
  return () => {
    (TASK_MODULES as TaskModule[]).splice(TASK_MODULES.indexOf(task), 1);
    for (const pipeline of task.pipelines) delete PIPELINES[pipeline.id];
  };
}
