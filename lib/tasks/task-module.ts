/**
 * What a task folder gives the core, in two parts: its declarations (plain data, safe in the browser)
 * and its module (server code: pipelines and what the stub, the demo and the queues need of it). The
 * core reads them through the registry (lib/tasks/registry.ts, lib/tasks/modules.ts), never by name.
 */
import type { RegisteredPipeline } from "../judge/engine/pipeline";
import type { TaskDeclaration } from "./task-declaration";
import type { QueueScopeModule } from "../queues/queue-scope";

/** `lib/tasks/<id>/declarations.ts`'s default export. */
export interface TaskDeclarations {
  /** The folder's id (an entry of TASK_IDS). */
  id: string;
  /** What each of the folder's pipelines scores, one declaration per pipeline id. */
  tasks: readonly TaskDeclaration[];
}

/** `lib/tasks/<id>/module.ts`'s default export. */
export interface TaskModule {
  /** The folder's id (an entry of TASK_IDS). */
  id: string;
  /** The pipelines the engine can run for the task; each carries its declaration as `task`. */
  pipelines: readonly RegisteredPipeline[];
  /** Review-queue scopes for runs whose subjects are items (a caption, an answer), beside the core's video scopes. */
  queueScopes?: readonly QueueScopeModule[];
}
