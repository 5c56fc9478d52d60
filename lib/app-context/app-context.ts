/**
 * The composition root: the one module that builds the application context, once per process (in Next.js, once per
 * bundle that loads it): the database client, the object storage, the job system, the built-in task catalogue from
 * the generated maps (lib/tasks/modules.ts, lib/tasks/registry.ts), the project task sources (rubric tasks) and the
 * subscribers to the judge engine's events (lib/app-context/judge-event-subscribers.ts). It
 * hands the catalogue layer the project catalogues it built (provideCatalogues), so the core receives catalogues
 * without importing the tasks or the features that define them.
 *
 * Called where code starts running: instrumentation.ts (the Next.js server's start), the route wrappers and page
 * helpers (each Next.js bundle's entry into lib/), the worker and the scripts, and the test setup. Only those import it:
 * it loads every task's folder.
 *
 * What must be one per process, not one per bundle, is held in the process slot (lib/config/process-slot.ts, the one
 * `globalThis` entry of lib/): the database client (lib/db/prisma.ts), the storage (lib/storage/storage.ts), the
 * pg-boss instance (lib/jobs/job-boss.ts), better-auth (lib/auth/auth.ts), the logger and its request context
 * (lib/observability/logger.ts) and the metrics registry (lib/observability/metrics.ts). Each is made by its own base
 * module on first use, which the context's `prisma`, `storage` and `jobs` hand on: the slot lives below this module
 * because base modules may not import the composition root.
 */
import { prisma } from "../db/prisma";
import type { PrismaClient } from "../generated/prisma/client";
import { createEnsembleRun } from "../ensembles/ensemble-runs";
import { jobBoss } from "../jobs/job-boss";
import type { JudgeEventSubscriber } from "../judge/engine/judge-events";
import type { EnsembleStarter } from "../judge/runs/runs";
import { rubricTaskSource } from "../rubrics/rubric-task-source";
import { JUDGE_EVENT_SUBSCRIBERS } from "./judge-event-subscribers";
import type { ObjectStorage } from "../storage/object-storage";
import { getStorage } from "../storage/storage";
import { ProjectCatalogues, provideCatalogues, TaskCatalogue } from "../task-modules/task-catalogue";
import { BUILT_IN_TASK_MODULES } from "../tasks/modules";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

export interface AppContext {
  prisma: PrismaClient;
  /** The configured object storage (made on first use: reading its settings may throw). */
  storage: () => ObjectStorage;
  /** The process's pg-boss instance (started on first use). */
  jobs: typeof jobBoss;
  /** The built-in tasks' catalogue. */
  catalogue: TaskCatalogue;
  /** The built-in catalogue and each project's (catalogFor). */
  catalogues: ProjectCatalogues;
  /** Who hears the judge engine's events, in order: what a process that judges hands its engine (JudgeDeps). */
  judgeEventSubscribers: readonly JudgeEventSubscriber[];
  /** What starts an ensemble run (lib/ensembles): what a process that starts runs hands the judge (RunDeps). */
  startEnsemble: EnsembleStarter;
}

/** The one context of this process (of this bundle, in Next.js). */
let context: AppContext | null = null;

/** The application context, built on the first call. */
export function appContext(): AppContext {
  context ??= composeAppContext();
  return context;
}

function composeAppContext(): AppContext {
  const catalogue = new TaskCatalogue(BUILT_IN_DECLARATIONS.folders, BUILT_IN_TASK_MODULES);
  const catalogues = new ProjectCatalogues(catalogue, [rubricTaskSource]);
  provideCatalogues(catalogues);
  return {
    prisma,
    storage: getStorage,
    jobs: jobBoss,
    catalogue,
    catalogues,
    judgeEventSubscribers: JUDGE_EVENT_SUBSCRIBERS,
    startEnsemble: createEnsembleRun,
  };
}
