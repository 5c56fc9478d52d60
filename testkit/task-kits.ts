/**
 * Every task folder's part of the testing-and-demo kit, in TASK_FOLDER_IDS order (the generated list,
 * testkit/generated/task-kits.ts). A test that adds a task of its own passes `[...TASK_KITS, itsKit]` to what reads
 * them (defaultStubRules, demoParts, crawlPages): the list itself never changes.
 */
import { GENERATED_TASK_KITS } from "./generated/task-kits";
import type { TaskKit } from "./task-kit";

export type { TaskKit } from "./task-kit";

export const TASK_KITS: readonly TaskKit[] = GENERATED_TASK_KITS;
