/**
 * The installed task modules: the core's port to the task registry. The core reads the task modules and their
 * pipelines here, at call time, and never imports the registry (lib/tasks/modules.ts) or the generated list of
 * modules: those import the core, so importing them back made circles. The registry installs the modules when it is
 * imported, and every process imports it once where it starts (instrumentation.ts for the Next.js server, the first
 * import of a script, the test setup).
 *
 * Next.js bundles route handlers and pages as separate copies of the same module in one process, and
 * instrumentation.ts as yet another: the installed list lives on globalThis so that every copy reads it. A copy
 * whose own bundle imported the registry reads its own install first, so its modules call into the same copies of
 * the core as today. Modules registered while the process runs (a project's rubric tasks, a test's toy task) belong
 * to this copy of the module only, as the declarations in lib/tasks/registry.ts do: each copy registers its own.
 */
import type { RegisteredPipeline } from "../judge/engine/pipeline";
import type { TaskModule } from "../tasks/task-module";

const INSTALLED = Symbol.for("framejury.taskModules");
type Installed = { modules: readonly TaskModule[] };
const shared = globalThis as { [INSTALLED]?: Installed };

/** This copy's install, if its bundle imported the registry. */
let installedHere: Installed | null = null;
/** Modules registered in this copy while the process runs, after the installed ones. */
const registered: TaskModule[] = [];
/** Every pipeline by id: one object, kept current as modules are registered and taken out (filled on first read). */
const pipelines: Record<string, RegisteredPipeline> = {};
/** The install `pipelines` was filled from. */
let pipelinesFrom: Installed | null = null;

/** Installs the registered tasks' modules (the registry does, on import); installing again replaces them. */
export function installTaskModules(modules: readonly TaskModule[]): void {
  installedHere = { modules: [...modules] };
  shared[INSTALLED] = installedHere;
}

function installed(): Installed {
  const found = installedHere ?? shared[INSTALLED];
  if (!found) {
    throw new Error(
      'No task modules are installed: import "lib/tasks/modules" (the task registry) once where the process starts (instrumentation.ts, a script\'s first import, lib/testing/vitest-setup.ts) before the core reads them.',
    );
  }
  return found;
}

/** The modules installed at process start (the built-in tasks'), one list until they are installed again. */
export function installedModules(): readonly TaskModule[] {
  return installed().modules;
}

/** Every installed task module in registry order, then those registered while the process runs. */
export function installedTaskModules(): readonly TaskModule[] {
  const { modules } = installed();
  return registered.length === 0 ? modules : [...modules, ...registered];
}

/** Every pipeline the engine can run, by id: one object, which registering a module changes (callers only read it). */
export function installedPipelines(): Record<string, RegisteredPipeline> {
  const current = installed();
  if (pipelinesFrom !== current) {
    for (const id of Object.keys(pipelines)) delete pipelines[id];
    for (const task of [...current.modules, ...registered])
      for (const pipeline of task.pipelines) pipelines[pipeline.id] = pipeline;
    pipelinesFrom = current;
  }
  return pipelines;
}

/**
 * Adds a task module while the process runs (a project's rubric task; a test's toy task, which proves a task is one
 * folder); the returned function takes it out again. Its declarations are registered separately
 * (registerTaskDeclarations).
 */
export function registerTaskModule(task: TaskModule): () => void {
  if (installedTaskModules().some((t) => t.id === task.id)) throw new Error(`Task "${task.id}" is already registered.`);
  registered.push(task);
  if (pipelinesFrom) for (const pipeline of task.pipelines) pipelines[pipeline.id] = pipeline;
  return () => {
    const at = registered.indexOf(task);
    if (at === -1) return;
    registered.splice(at, 1);
    if (pipelinesFrom) for (const pipeline of task.pipelines) delete pipelines[pipeline.id];
  };
}
