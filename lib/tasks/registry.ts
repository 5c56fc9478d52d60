/**
 * The built-in tasks' declarations as one declaration catalogue (lib/task-modules/declaration-catalogue.ts), built
 * once from the task folders' declarations (lib/generated/tasks/declarations.ts, from TASK_FOLDER_IDS in ./index.ts).
 * Plain data, safe in the browser. The composition root (lib/app-context/app-context.ts) builds the built-in task
 * catalogue from it; components read it for the browser's catalogue (components/tasks/task-catalogue-context.tsx).
 * The core never imports it (it receives a catalogue), so no core file loads a task's folder. A project's catalogue
 * adds its own tasks (catalogFor, lib/task-modules/task-catalogue.ts).
 */
import { GENERATED_TASK_DECLARATIONS } from "../generated/tasks/declarations";
import { DeclarationCatalogue } from "../task-modules/declaration-catalogue";

/** The built-in tasks' declarations: one catalogue for the life of the process (or the browser page). */
export const BUILT_IN_DECLARATIONS = new DeclarationCatalogue(GENERATED_TASK_DECLARATIONS);
