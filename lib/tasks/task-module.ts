/**
 * What a task folder gives the core, in two parts: its declarations (plain data, safe in the browser)
 * and its module (server code: pipelines and what the stub, the demo and the queues need of it). The
 * core reads them through the registry (lib/tasks/registry.ts, lib/tasks/modules.ts), never by name.
 */
import type { ItemSetKind } from "../items/item-set-kind";
import type { RegisteredPipeline } from "../judge/engine/pipeline";
import type { LabelSetFormat } from "../label-sets/label-set-format";
import type { TaskDeclaration } from "./task-declaration";

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
  /** The kinds of item set the task imports (a file of items attached to the project's videos), each with its importer. */
  itemSetKinds?: readonly ItemSetKind[];
  /** The task's own label file formats (the generic CSV/JSONL and VBench's results are the core's). */
  labelSetFormats?: readonly LabelSetFormat[];
}
