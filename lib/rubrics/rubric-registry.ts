/**
 * Rubric tasks in the task registry: each process (the app, a worker, the CLI) registers every project's
 * rubric tasks as task folders of their own, so the core (runs, lists, queues, agreement, exports) reads them
 * through the same registry as the built-in tasks. A task's pipeline id and target ids carry its key, unique
 * across projects, so one process can hold every project's.
 *
 * Refreshed at most once a second per process (ensureRubricTasks), and at once after this process saves one:
 * another machine's edit shows within a second.
 *
 * A process may hold several copies of this module, each with its own registry: Next.js bundles the route handlers
 * and the pages separately (a save through the API refreshed the API's copy, and the Judge page rendered just after
 * it read the pages' copy, a second stale, without the new task). A save counts a change in a counter on globalThis,
 * which every copy shares, and a copy that has not loaded since the last change loads again before it answers.
 */
export { loadRubricTaskRecords };
export { rubricTaskFolder };
import type { PrismaClient } from "../generated/prisma/client";
import { registerTaskModule } from "../task-modules/installed-task-modules";
import { registerTaskDeclarations } from "../tasks/registry";
import type { TaskDeclarations } from "../tasks/task-module";
import { rubricPipeline, type RubricTaskRecord } from "./rubric-pipeline";
import { rubricTaskFolder } from "./project-catalogue";
import { loadRubricTaskRecords } from "./rubric-task-records";
import { rubricItemQueueScope } from "./rubric-item-queue-scope";
import { rubricItemSetKind } from "./rubric-item-set-kind";

const CHANGES = Symbol.for("framejury.rubricTaskChanges");
const registered = new Map<number, { signature: string; record: RubricTaskRecord; undo: () => void }>();
/** Every id a registered rubric task puts in the registry (pipeline, target and metric ids). */
const registeredIds = new Set<string>();

function register(record: RubricTaskRecord): () => void {
  const folder = rubricTaskFolder(record);
  const itemSetKind = rubricItemSetKind(record.key, record.latest.definition);
  // An item subject brings the kind its items are imported as and the queue scope its runs are reviewed in.
  const undoModule = registerTaskModule({
    id: folder.id,
    pipelines: [rubricPipeline(record)],
    ...(itemSetKind
      ? { itemSetKinds: [itemSetKind], queueScopes: [rubricItemQueueScope(record.key, record.name, record.projectId)] }
      : {}),
  });
  const undoDeclarations = registerTaskDeclarations(folder);
  const ids = folder.tasks.flatMap((task) => [
    task.id,
    ...task.targets.map((t) => t.id),
    ...task.metrics.map((m) => m.id),
  ]);
  for (const id of ids) registeredIds.add(id);
  return () => {
    undoDeclarations();
    undoModule();
    for (const id of ids) registeredIds.delete(id);
  };
}

/** Is this a pipeline, target or metric id of some project's rubric task (no business of another project's caller)? */
export function isRubricTaskId(id: string): boolean {
  return registeredIds.has(id);
}

/**
 * `build` run with no rubric task in the registry: for what every caller sees alike (the public OpenAPI
 * document), which must not list one project's task ids. Synchronous, so no other request sees the gap.
 */
export function withoutRubricTasks<T>(build: () => T): T {
  const entries = [...registered.values()];
  for (const entry of entries) entry.undo();
  try {
    return build();
  } finally {
    for (const entry of entries) entry.undo = register(entry.record);
  }
}
let loadedAt = 0;
let loading: { promise: Promise<void>; changes: number } | null = null;
const MAX_AGE_MS = 1000;
/** Loads by the order they started: one that read the rows before a later load must not register over it. */
let loadsStarted = 0;
let newestApplied = 0;
/** The process's count of rubric task changes, one object for every copy of this module in the process. */
const changes: { count: number } = ((globalThis as { [CHANGES]?: { count: number } })[CHANGES] ??= { count: 0 });
/** The change count this copy's registry is current with (read as its newest applied load started). */
let changesLoaded = -1;

/** Registers the given rubric tasks as they are now, replacing what changed and removing the ones gone. */
export function registerRubricTasks(records: readonly RubricTaskRecord[]): void {
  const keep = new Set<number>();
  for (const record of records) {
    keep.add(record.key);
    const signature = `${record.latest.hash}|${record.archived}|${record.name}`;
    const current = registered.get(record.key);
    if (current?.signature === signature) continue;
    current?.undo();
    registered.set(record.key, { signature, record, undo: register(record) });
  }
  for (const [key, entry] of registered) {
    if (keep.has(key)) continue;
    entry.undo();
    registered.delete(key);
  }
}

/**
 * Makes the registry current: at most a second old, and loaded since this process last changed a rubric task; cheap
 * when it is. `force` (after a save, or a pipeline the registry lacks) counts a change and loads now, so every other
 * copy of this module in the process loads on its next call.
 */
export async function ensureRubricTasks(prisma: PrismaClient, options: { force?: boolean } = {}): Promise<void> {
  if (options.force) changes.count++;
  const changeCount = changes.count;
  if (!options.force && changesLoaded === changeCount && Date.now() - loadedAt < MAX_AGE_MS) return;
  if (!options.force && loading?.changes === changeCount) return loading.promise;
  const started = Date.now();
  const generation = ++loadsStarted;
  const promise = (async () => {
    const records = await loadRubricTaskRecords(prisma);
    // A forced load (after a save) that started later may have finished first: these rows are older than its.
    if (generation < newestApplied) return;
    registerRubricTasks(records);
    newestApplied = generation;
    loadedAt = started;
    changesLoaded = changeCount;
  })();
  const load = { promise, changes: changeCount };
  loading = load;
  try {
    await promise;
  } finally {
    if (loading === load) loading = null;
  }
}

/** The registered rubric task folders of one project (for the browser's registry). */
export function projectRubricFolders(records: readonly RubricTaskRecord[], projectId: string): TaskDeclarations[] {
  return records.filter((r) => r.projectId === projectId).map(rubricTaskFolder);
}
