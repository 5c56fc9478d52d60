/**
 * The task registry's install point: importing this file installs the registered tasks' declarations (./registry.ts,
 * through lib/task-modules/installed-declarations.ts) and their server modules (lib/generated/tasks/modules.ts, from
 * TASK_FOLDER_IDS, through lib/task-modules/installed-task-modules.ts), which the core reads through its port. Every process
 * imports it once where it starts: instrumentation.ts (the Next.js server), the scripts, lib/testing/vitest-setup.ts.
 * Server only: a module pulls in its pipelines' prompts and parsers. The only importer of the generated list of
 * modules, and never imported by the core (eslint.config.mjs, scripts/import-layers.test.ts).
 */
import "./registry";
import { GENERATED_TASK_MODULES } from "../generated/tasks/modules";
import { installTaskModules } from "../task-modules/installed-task-modules";

installTaskModules(GENERATED_TASK_MODULES);
