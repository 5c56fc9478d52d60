/**
 * A test file's own tasks in every project's catalogue, provided where the composition root provides the process's
 * (lib/app-context/app-context.ts: the built-in catalogue, the rubric tasks as a project task source): the engine then
 * finds a toy task's pipeline through catalogFor, as it finds a project's own task's. Vitest loads the catalogue
 * layer once per test file, so the toy tasks stay in the file that adds them.
 */
import { rubricTaskSource } from "../../lib/rubrics/rubric-task-source";
import {
  builtInCatalogue,
  ProjectCatalogues,
  provideCatalogues,
  type ProjectTask,
} from "../../lib/task-modules/task-catalogue";

export function provideCataloguesWith(...tasks: readonly ProjectTask[]): void {
  const toyTasks = { stateOf: async () => "", tasksOf: async () => tasks };
  provideCatalogues(new ProjectCatalogues(builtInCatalogue(), [rubricTaskSource, toyTasks]));
}
