/**
 * The declaration catalogue: what the tasks one request can see declare (their pipelines' targets, metrics, query
 * keys, folders), as one immutable value. Plain data, safe in the browser: the server hands a project's catalogue to
 * the browser through a React context (components/tasks/task-catalogue-context.tsx). The server's full catalogue
 * (declarations and modules, ./task-catalogue.ts) extends it, so code that only reads declarations takes either.
 *
 * Built-in tasks form one catalogue built once from the generated list (BUILT_IN_DECLARATIONS, lib/tasks/registry.ts); a project's
 * catalogue adds its own tasks (catalogFor, ./task-catalogue.ts). What is derived from a catalogue (lists,
 * schemas) is cached on the value itself (`derived`), so a schema keeps its identity as long as its catalogue does.
 */
import type { MetricDeclaration, QueryAlias, TargetDeclaration, TaskDeclaration } from "./task-declaration";
import type { TaskFolderDeclarations } from "./task-module";

export class UnknownTaskError extends Error {}

export class DeclarationCatalogue {
  /** Every task folder's declarations: the built-in ones in TASK_FOLDER_IDS order, then a project's own. */
  readonly folders: readonly TaskFolderDeclarations[];
  /** Every task (one per pipeline id), in the folders' order. */
  readonly tasks: readonly TaskDeclaration[];
  private readonly byId: ReadonlyMap<string, TaskDeclaration>;
  /** Values built from this catalogue, by the key their builder named (see derived). */
  private readonly built = new Map<string, unknown>();

  constructor(folders: readonly TaskFolderDeclarations[]) {
    const byId = new Map<string, TaskDeclaration>();
    for (const folder of folders)
      for (const task of folder.tasks) {
        if (byId.has(task.id)) throw new Error(`Task "${task.id}" is declared twice.`);
        byId.set(task.id, task);
      }
    this.folders = Object.freeze([...folders]);
    this.tasks = Object.freeze(this.folders.flatMap((folder) => folder.tasks));
    this.byId = byId;
  }

  /** The folders that belong to one project (its rubric tasks): what the browser gets beside the built-in ones. */
  projectFolders(): TaskFolderDeclarations[] {
    return this.folders.filter((folder) => folder.projectId !== undefined);
  }

  /** The same catalogue with more folders after these (a project's rubric tasks; a test's toy task). */
  withFolders(folders: readonly TaskFolderDeclarations[]): DeclarationCatalogue {
    return new DeclarationCatalogue([...this.folders, ...folders]);
  }

  /** The task of a pipeline; throws UnknownTaskError for a pipeline no task of this catalogue declares. */
  taskOf(pipelineId: string): TaskDeclaration {
    const task = this.byId.get(pipelineId);
    if (!task) throw new UnknownTaskError(`No judge task is declared for pipeline "${pipelineId}".`);
    return task;
  }

  /** The task of a pipeline, or null for a pipeline no task declares (a page then shows codes without names). */
  findTask(pipelineId: string | null | undefined): TaskDeclaration | null {
    return (pipelineId != null && this.byId.get(pipelineId)) || null;
  }

  /** Is this a pipeline id of a task in the catalogue? */
  has(pipelineId: string): boolean {
    return this.byId.has(pipelineId);
  }

  /** Pipelines whose subject is the video itself: the video list's scores come from one of their runs. */
  videoSubjectPipelineIds(): string[] {
    return this.derived("videoSubjectPipelineIds", () =>
      this.tasks.filter((t) => t.subject === "video").map((t) => t.id),
    );
  }

  /** Every declared target of every task (for parsing a query before its run is known). */
  allTargets(): TargetDeclaration[] {
    return this.derived("allTargets", () => this.tasks.flatMap((t) => t.targets));
  }

  allTargetIds(): string[] {
    return this.derived("allTargetIds", () => [...new Set(this.allTargets().map((target) => target.id))]);
  }

  /** Every declared metric, by id, across tasks (the first declaration of an id wins for parsing). */
  allMetrics(): MetricDeclaration[] {
    return this.derived("allMetrics", () => {
      const byId = new Map<string, MetricDeclaration>();
      for (const task of this.tasks)
        for (const metric of task.metrics) if (!byId.has(metric.id)) byId.set(metric.id, metric);
      return [...byId.values()];
    });
  }

  /** Every task's legacy query keys. */
  allQueryAliases(): QueryAlias[] {
    return this.derived("allQueryAliases", () => this.tasks.flatMap((t) => t.queryAliases ?? []));
  }

  /**
   * `build`'s value for this catalogue, built on first use and kept with the value: a schema built from the
   * declarations keeps its identity while the catalogue does. `key` names the builder (one key, one builder).
   */
  derived<T>(key: string, build: () => T): T {
    if (!this.built.has(key)) this.built.set(key, build());
    return this.built.get(key) as T;
  }
}
