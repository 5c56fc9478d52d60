/**
 * catalogFor: the task catalogue of one project, the built-in tasks and the project's rubric tasks. Route wrappers,
 * page helpers, the engine and scripts resolve it once per request, run or project and pass it on.
 *
 * Each call reads the project's rubric tasks' versions (one small query), so an edit is seen on the next call. The
 * catalogue built for a state of those versions is kept, by project and by that state, so that an unchanged project
 * reuses its value (and what is derived from it, say a query schema). A project's entry is only ever answered for
 * that project, and the cache holds values computed from the database, never the source of truth.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { builtInCatalogue, type TaskCatalogue, withTasks } from "../task-modules/task-catalogue";
import type { TaskFolderDeclarations, TaskModule } from "../task-modules/task-module";
import type { TaskDeclaration } from "../task-modules/task-declaration";
import { rubricPipeline, type RubricTaskRecord } from "./rubric-pipeline";
import { rubricTaskDeclaration } from "./rubric-declaration";
import { rubricItemQueueType } from "./rubric-item-queue-type";
import { rubricItemSetKind } from "./rubric-item-set-kind";
import { loadRubricTaskRecords } from "./rubric-task-records";

/** A rubric task's declarations as a task folder of its own (what the browser gets too). */
export function rubricTaskFolder(record: RubricTaskRecord): TaskFolderDeclarations {
  const declaration = rubricTaskDeclaration(record.key, record.latest.definition);
  return {
    id: declaration.id,
    projectId: record.projectId,
    tasks: [declaration],
    // An archived task keeps its declaration (its runs are still read) and leaves the run form.
    runForm: record.archived ? {} : { [declaration.id]: { label: `${record.name} (rubric task)` } },
  };
}

/** A rubric task's module: its pipeline and, for an item subject, its item kind and queue type. */
export function rubricTaskModule(record: RubricTaskRecord): TaskModule {
  const folder = rubricTaskFolder(record);
  const itemSetKind = rubricItemSetKind(record.key, record.latest.definition);
  return {
    id: folder.id,
    pipelines: [rubricPipeline(record)],
    ...(itemSetKind
      ? { itemSetKinds: [itemSetKind], queueTypes: [rubricItemQueueType(record.key, record.name, record.projectId)] }
      : {}),
  };
}

/** The built-in catalogue with the given rubric tasks added. */
export function catalogueWithRubricTasks(base: TaskCatalogue, records: readonly RubricTaskRecord[]): TaskCatalogue {
  if (records.length === 0) return base;
  return withTasks(
    base,
    ...records.map((record) => ({ declarations: rubricTaskFolder(record), module: rubricTaskModule(record) })),
  );
}

/** How many projects' catalogues are kept (the least recently built goes first). */
const KEPT = 200;
const kept = new Map<string, { base: TaskCatalogue; state: string; catalogue: TaskCatalogue }>();

/** The state of a project's rubric tasks: every task's key, name, archival and latest version. */
async function rubricTasksState(prisma: PrismaClient, projectId: string): Promise<string> {
  const rows = await prisma.rubricTask.findMany({
    where: { projectId },
    orderBy: { key: "asc" },
    select: {
      key: true,
      name: true,
      archivedAt: true,
      versions: { orderBy: { number: "desc" }, take: 1, select: { id: true } },
    },
  });
  return JSON.stringify(rows.map((row) => [row.key, row.name, row.archivedAt !== null, row.versions[0]?.id ?? null]));
}

/**
 * The catalogue a lib entry point reads: the one its caller resolved for the request (route wrappers and page helpers
 * pass it), else the project's own, resolved now (a script, a test).
 */
export async function catalogueOf(
  prisma: PrismaClient,
  projectId: string,
  given: TaskCatalogue | undefined,
): Promise<TaskCatalogue> {
  return given ?? catalogFor(prisma, projectId);
}

/** The catalogue one project's requests see: the built-in tasks and the project's rubric tasks as they are now. */
export async function catalogFor(prisma: PrismaClient, projectId: string): Promise<TaskCatalogue> {
  const base = builtInCatalogue();
  const state = await rubricTasksState(prisma, projectId);
  const found = kept.get(projectId);
  if (found && found.base === base && found.state === state) return found.catalogue;
  const catalogue = catalogueWithRubricTasks(base, await loadRubricTaskRecords(prisma, { projectId }));
  kept.delete(projectId);
  kept.set(projectId, { base, state, catalogue });
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  return catalogue;
}

/**
 * The task of a run, from the catalogue given (the request's) or its project's (UnknownTaskError for a pipeline the
 * catalogue has no task of).
 */
export async function runTask(
  prisma: PrismaClient,
  run: { projectId: string; pipeline: string },
  given?: TaskCatalogue,
): Promise<TaskDeclaration> {
  return (await catalogueOf(prisma, run.projectId, given)).taskOf(run.pipeline);
}
