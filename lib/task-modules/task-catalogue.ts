/**
 * The task catalogue: everything the server knows about the tasks one request can see, as one immutable value:
 * their declarations (DeclarationCatalogue, the part the browser gets) and their modules, with every pipeline the
 * engine can run. Server only: a module carries its pipelines' prompts and parsers.
 *
 * The built-in catalogue (builtInCatalogue) is built once from the modules installed at process start (lib/tasks/modules.ts
 * installs them through ./installed-task-modules.ts) and the declarations installed beside them
 * (./installed-declarations.ts); a project's catalogue adds its
 * rubric tasks (lib/rubrics/project-catalogue.ts, catalogFor); a test adds its toy task (withTasks). None of them
 * changes once built, so a request reads one consistent catalogue from start to end.
 */
import type { RegisteredPipeline } from "../judge/engine/pipeline";
import type { TaskFolderDeclarations, TaskModule } from "./task-module";
import { DeclarationCatalogue } from "./declaration-catalogue";
import { builtInDeclarations } from "./installed-declarations";
import { installedModules } from "./installed-task-modules";

export class TaskCatalogue extends DeclarationCatalogue {
  /** Every task module, the built-in ones in TASK_FOLDER_IDS order, then those added. */
  readonly modules: readonly TaskModule[];
  /** Every pipeline the engine can run, by id (a null-prototype record, frozen: an unknown id reads undefined). */
  readonly pipelines: Readonly<Record<string, RegisteredPipeline>>;

  constructor(folders: readonly TaskFolderDeclarations[], modules: readonly TaskModule[]) {
    super(folders);
    const moduleIds = new Set<string>();
    const pipelines: Record<string, RegisteredPipeline> = Object.create(null);
    for (const task of modules) {
      if (moduleIds.has(task.id)) throw new Error(`Task "${task.id}" is already in the catalogue.`);
      moduleIds.add(task.id);
      for (const pipeline of task.pipelines) pipelines[pipeline.id] = pipeline;
    }
    this.modules = Object.freeze([...modules]);
    this.pipelines = Object.freeze(pipelines);
  }

  /** The part of the catalogue the browser gets: the declarations alone. */
  declarations(): DeclarationCatalogue {
    return this.derived("declarations", () => new DeclarationCatalogue(this.folders));
  }
}

/**
 * A catalogue with more tasks after the given one's: each entry's declarations and its module (a project's rubric
 * task; a test's toy task, which proves a task is one folder). Leaves `base` as it was.
 */
export function withTasks(
  base: TaskCatalogue,
  ...added: readonly { declarations?: TaskFolderDeclarations; module?: TaskModule }[]
): TaskCatalogue {
  return new TaskCatalogue(
    [...base.folders, ...added.flatMap((entry) => (entry.declarations ? [entry.declarations] : []))],
    [...base.modules, ...added.flatMap((entry) => (entry.module ? [entry.module] : []))],
  );
}

/** The built-in catalogue, for the modules it was built from (installing again builds it again). */
let builtIn: { from: readonly TaskModule[]; catalogue: TaskCatalogue } | null = null;

/**
 * The built-in tasks' catalogue: the declarations and the modules installed at process start. The same
 * value for the life of the process; it holds no project's data.
 */
export function builtInCatalogue(): TaskCatalogue {
  const modules = installedModules();
  if (builtIn?.from !== modules)
    builtIn = { from: modules, catalogue: new TaskCatalogue(builtInDeclarations().folders, modules) };
  return builtIn.catalogue;
}
