/**
 * The task catalogue: everything the server knows about the tasks one request can see, as one immutable value:
 * their declarations (DeclarationCatalogue, the part the browser gets) and their modules, with every pipeline the
 * engine can run. Server only: a module carries its pipelines' prompts and parsers.
 *
 * The built-in catalogue (builtInCatalogue) is built once by the composition root (lib/app-context/app-context.ts)
 * from the generated maps; a project's catalogue (catalogFor) adds the project's own tasks from the project task
 * sources the root wires (rubric tasks); a test adds its toy task (withTasks). None of them changes once built, so a
 * request reads one consistent catalogue from start to end.
 *
 * What the composition root provided is kept on one module-level value (`provided`): each copy of this module that
 * Next.js loads (one per bundle) is provided by the entry that runs in that bundle (the route wrappers, the page
 * helpers), a script or worker by its start, a test file by the test setup. A read before anything was provided
 * throws, naming the call to add.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { RegisteredPipeline } from "./pipeline-types";
import type { TaskDeclaration } from "./task-declaration";
import type { TaskFolderDeclarations, TaskModule } from "./task-module";
import { DeclarationCatalogue } from "./declaration-catalogue";

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

/** One of a project's own tasks: its module and (but for a test's bare pipeline) its declarations. */
export interface ProjectTask {
  declarations?: TaskFolderDeclarations;
  module: TaskModule;
}

/**
 * Where a project's own tasks come from (rubric tasks: lib/rubrics/rubric-task-source.ts). `stateOf` is read on every
 * call (one small query) and changes whenever `tasksOf` would answer otherwise, so an edit is seen on the next call.
 */
export interface ProjectTaskSource {
  stateOf(prisma: PrismaClient, projectId: string): Promise<string>;
  tasksOf(prisma: PrismaClient, projectId: string): Promise<readonly ProjectTask[]>;
  /**
   * The pipeline a run of one of the source's tasks pinned when it started (a rubric task's version, kept in the run's
   * settings), so a later edit of the task never changes a run under way; null when the run pinned none of this
   * source's, and the project's catalogue answers.
   */
  pinnedPipelineOf?(
    prisma: PrismaClient,
    run: RunOfPipeline,
  ): Promise<{ pipeline: RegisteredPipeline | undefined } | null>;
}

/** What names a run's pipeline: its project, its pipeline id and the settings it started with. */
export interface RunOfPipeline {
  projectId: string;
  pipeline: string;
  settings: unknown;
}

/** How many projects' catalogues are kept (the least recently built goes first). */
const KEPT = 200;

/**
 * The built-in catalogue and every project's catalogue, built from the project task sources. The catalogue built for
 * one state of a project's tasks is kept by project and state, so that an unchanged project reuses its value (and
 * what is derived from it, say a query schema). A project's entry is only ever answered for that project, and the
 * cache holds values computed from the database, never the source of truth.
 */
export class ProjectCatalogues {
  private readonly kept = new Map<string, { state: string; catalogue: TaskCatalogue }>();

  constructor(
    readonly builtIn: TaskCatalogue,
    private readonly sources: readonly ProjectTaskSource[],
  ) {}

  /** The catalogue one project's requests see: the built-in tasks and the project's own as they are now. */
  async forProject(prisma: PrismaClient, projectId: string): Promise<TaskCatalogue> {
    const state = JSON.stringify(await Promise.all(this.sources.map((source) => source.stateOf(prisma, projectId))));
    const found = this.kept.get(projectId);
    if (found && found.state === state) return found.catalogue;
    const added = (await Promise.all(this.sources.map((source) => source.tasksOf(prisma, projectId)))).flat();
    const catalogue = added.length === 0 ? this.builtIn : withTasks(this.builtIn, ...added);
    this.kept.delete(projectId);
    this.kept.set(projectId, { state, catalogue });
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return catalogue;
  }

  /** The pipeline a run runs: a built-in task's, the one it pinned at its start, else its project's catalogue's. */
  async pipelineOfRun(prisma: PrismaClient, run: RunOfPipeline): Promise<RegisteredPipeline | undefined> {
    const builtIn = this.builtIn.pipelines[run.pipeline];
    if (builtIn) return builtIn;
    for (const source of this.sources) {
      const pinned = await source.pinnedPipelineOf?.(prisma, run);
      if (pinned) return pinned.pipeline;
    }
    return (await this.forProject(prisma, run.projectId)).pipelines[run.pipeline];
  }
}

/** What the composition root provided to this copy of the module. */
let provided: ProjectCatalogues | null = null;

/** The composition root hands this layer the catalogues it built (once per process, or per bundle in Next.js). */
export function provideCatalogues(catalogues: ProjectCatalogues): void {
  provided = catalogues;
}

function catalogues(): ProjectCatalogues {
  if (!provided) {
    throw new Error(
      "No task catalogue was provided: call appContext() (lib/app-context/app-context.ts) where the process or bundle starts (instrumentation.ts, the route wrappers and page helpers, a script's start, testkit/testing/vitest-setup.ts) before the core reads a catalogue.",
    );
  }
  return provided;
}

/** The built-in tasks' catalogue, as the composition root built it: the same value for the life of the process. */
export function builtInCatalogue(): TaskCatalogue {
  return catalogues().builtIn;
}

/** The catalogue one project's requests see: the built-in tasks and the project's own tasks as they are now. */
export async function catalogFor(prisma: PrismaClient, projectId: string): Promise<TaskCatalogue> {
  return catalogues().forProject(prisma, projectId);
}

/**
 * The pipeline of a run, as the engine, the judge spans and the ensemble combiner read it (undefined for a pipeline
 * neither the built-in tasks nor the run's project has).
 */
export async function pipelineOfRun(prisma: PrismaClient, run: RunOfPipeline): Promise<RegisteredPipeline | undefined> {
  return catalogues().pipelineOfRun(prisma, run);
}

/**
 * The catalogue a lib entry point reads: the one its caller resolved for the request (route wrappers and page helpers
 * pass it), else the project's own, resolved now (a script, a test).
 */
export async function catalogueOf(
  prisma: PrismaClient,
  projectId: string,
  given: TaskCatalogue | undefined,
): Promise<TaskCatalogue> {
  return given ?? catalogFor(prisma, projectId);
}

/**
 * The task of a run, from the catalogue given (the request's) or its project's (UnknownTaskError for a pipeline the
 * catalogue has no task of).
 */
export async function runTask(
  prisma: PrismaClient,
  run: { projectId: string; pipeline: string },
  given?: TaskCatalogue,
): Promise<TaskDeclaration> {
  return (await catalogueOf(prisma, run.projectId, given)).taskOf(run.pipeline);
}
