import path from "node:path";
import { filesLoading, ROOT } from "../../scripts/lib/import-graph";

/**
 * The core's ports to the task registry (the installed modules and the installed declarations): a test file that
 * loads neither cannot read what the registry installs.
 */
const PORTS = ["lib/task-modules/installed-task-modules.ts", "lib/task-modules/installed-declarations.ts"].map((file) =>
  path.join(ROOT, file),
);

/**
 * Those of the test files (absolute paths) that load one of the task registry's ports at run time, directly or through what
 * they import. The test setup installs the task registry for these files only: importing it loads every task's
 * pipelines, prompts and parsers, about 0.8 s of each file's start on a 2-core machine, and half the files (the
 * pure units among them) never read it. A file that reads the port without this list knowing fails with the port's
 * own error ("No task modules are installed", "No task declarations are installed"), never silently.
 */
export function taskModuleReaders(testFiles: readonly string[]): string[] {
  const readers = new Set(PORTS.flatMap((port) => filesLoading(testFiles, port)));
  return testFiles.filter((file) => readers.has(file));
}
