/**
 * The built-in tasks' declarations as one declaration catalogue (lib/task-modules/declaration-catalogue.ts), built
 * once from the task folders' declarations (lib/generated/tasks/declarations.ts, from TASK_FOLDER_IDS in ./index.ts), and
 * installed through the port (lib/task-modules/installed-declarations.ts) when this file is imported. Plain data, safe
 * in the browser. The install point imports it on the server (./modules.ts), app/providers.tsx and the task
 * catalogue's context in the browser; the core never imports it (it reads builtInDeclarations()), so no core file
 * loads a task's folder. A project's catalogue adds its rubric tasks (lib/rubrics/project-catalogue.ts).
 */
import { GENERATED_TASK_DECLARATIONS } from "../generated/tasks/declarations";
import { DeclarationCatalogue } from "../task-modules/declaration-catalogue";
import { installTaskDeclarations } from "../task-modules/installed-declarations";

/** The built-in tasks' declarations: one catalogue for the life of the process (or the browser page). */
export const BUILT_IN_DECLARATIONS = new DeclarationCatalogue(GENERATED_TASK_DECLARATIONS);

installTaskDeclarations(BUILT_IN_DECLARATIONS);
