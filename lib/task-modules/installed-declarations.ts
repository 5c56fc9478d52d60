/**
 * The installed task declarations: the core's port to the built-in tasks' declarations (plain data, safe in the
 * browser). The registry (lib/tasks/registry.ts) installs the generated list here when it is imported: on the server
 * through the install point (lib/tasks/modules.ts, imported once where each process starts), in the browser through
 * app/providers.tsx and the task catalogue's context. The core reads them with builtInDeclarations() and never imports
 * the registry or the generated list, so no core file loads a task's folder. Code, not project data: never changed
 * once installed.
 *
 * Next.js bundles route handlers, pages and instrumentation.ts as separate copies of one module in one process: the
 * install is kept on globalThis so that every copy reads it, and a copy whose own bundle imported the registry reads
 * its own install first.
 */
import type { DeclarationCatalogue } from "./declaration-catalogue";

const INSTALLED = Symbol.for("framejury.taskDeclarations");
const shared = globalThis as { [INSTALLED]?: DeclarationCatalogue };

/** This copy's install, if its bundle imported the registry. */
let installedHere: DeclarationCatalogue | null = null;

/** Installs the built-in tasks' declarations (the registry does, on import). */
export function installTaskDeclarations(catalogue: DeclarationCatalogue): void {
  installedHere = catalogue;
  shared[INSTALLED] = catalogue;
}

/** The built-in tasks' declarations, as installed where the process (or the browser page) started. */
export function builtInDeclarations(): DeclarationCatalogue {
  const found = installedHere ?? shared[INSTALLED];
  if (!found) {
    throw new Error(
      'No task declarations are installed: import "lib/tasks/registry" (or "lib/tasks/modules" on the server) once where the process or page starts (instrumentation.ts, a script\'s first import, testkit/testing/vitest-setup.ts, app/providers.tsx) before the core reads them.',
    );
  }
  return found;
}
