import path from "node:path";
import { filesLoading, ROOT } from "../../scripts/lib/import-graph";

/** The core's port to the task registry: a test file that never loads it cannot read the installed task modules. */
const PORT = path.join(ROOT, "lib/task-modules/installed-task-modules.ts");

/**
 * Those of the test files (absolute paths) that load the task modules' port at run time, directly or through what
 * they import. The test setup installs the task registry for these files only: importing it loads every task's
 * pipelines, prompts and parsers, about 0.8 s of each file's start on a 2-core machine, and half the files (the
 * pure units among them) never read it. A file that reads the port without this list knowing fails with the port's
 * own error ("No task modules are installed"), never silently.
 */
export function taskModuleReaders(testFiles: readonly string[]): string[] {
  return filesLoading(testFiles, PORT);
}
