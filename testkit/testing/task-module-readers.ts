import path from "node:path";
import { filesLoading, ROOT } from "../../scripts/lib/import-graph";

/**
 * Where the core reads what the composition root provides (the catalogues, lib/task-modules/task-catalogue.ts): a
 * test file that never loads it cannot read the application context.
 */
const PORTS = ["lib/task-modules/task-catalogue.ts"].map((file) => path.join(ROOT, file));

/**
 * Those of the test files (absolute paths) that load it at run time, directly or through what they
 * import. The test setup builds the application context for these files only: building it loads every task's
 * pipelines, prompts and parsers, about 0.8 s of each file's start on a 2-core machine, and half the files (the
 * pure units among them) never read it. A file that reads the port without this list knowing fails with the port's
 * own error ("No task catalogue was provided"), never silently.
 */
export function taskModuleReaders(testFiles: readonly string[]): string[] {
  const readers = new Set(PORTS.flatMap((port) => filesLoading(testFiles, port)));
  return testFiles.filter((file) => readers.has(file));
}
