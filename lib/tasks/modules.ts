/**
 * The built-in tasks' server modules (lib/generated/tasks/modules.ts, from TASK_FOLDER_IDS), in that order. Server
 * only: a module pulls in its pipelines' prompts and parsers. Only the composition root (lib/app-context/app-context.ts)
 * imports it, to build the built-in task catalogue; the core never does (eslint.config.mjs,
 * scripts/import-layers.test.ts): it receives the catalogue.
 */
import { GENERATED_TASK_MODULES } from "../generated/tasks/modules";
import type { TaskModule } from "../task-modules/task-module";

export const BUILT_IN_TASK_MODULES: readonly TaskModule[] = Object.freeze([...GENERATED_TASK_MODULES]);
