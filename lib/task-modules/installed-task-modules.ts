/**
 * The installed task modules: the core's port to the built-in tasks' code. The registry (lib/tasks/modules.ts)
 * installs the generated list of modules here when it is imported, once where each process starts (instrumentation.ts
 * for the Next.js server, the first import of a script, the test setup); the core reads them through the built-in
 * task catalogue (./task-catalogue.ts) and never imports the registry or the generated list (those import the core,
 * so importing them back made circles). The modules are code, not project data, and never change once installed.
 *
 * Next.js bundles route handlers and pages as separate copies of the same module in one process, and
 * instrumentation.ts as yet another: the install is kept on globalThis so that every copy reads it. A copy whose own
 * bundle imported the registry reads its own install first, so its modules call into the same copies of the core.
 */
import type { TaskModule } from "./task-module";

const INSTALLED = Symbol.for("framejury.taskModules");
type Installed = { modules: readonly TaskModule[] };
const shared = globalThis as { [INSTALLED]?: Installed };

/** This copy's install, if its bundle imported the registry. */
let installedHere: Installed | null = null;

/** Installs the built-in tasks' modules (the registry does, on import). */
export function installTaskModules(modules: readonly TaskModule[]): void {
  installedHere = { modules: Object.freeze([...modules]) };
  shared[INSTALLED] = installedHere;
}

/** The modules installed at process start (the built-in tasks'), in TASK_FOLDER_IDS order. */
export function installedModules(): readonly TaskModule[] {
  const found = installedHere ?? shared[INSTALLED];
  if (!found) {
    throw new Error(
      'No task modules are installed: import "lib/tasks/modules" (the task registry) once where the process starts (instrumentation.ts, a script\'s first import, lib/testing/vitest-setup.ts) before the core reads them.',
    );
  }
  return found.modules;
}
