import type { PrismaClient, ReviewQueue } from "../generated/prisma/client";
import type { TaskCatalogue } from "../task-modules/task-catalogue";
import type { SubjectKind } from "../task-modules/task-declaration";
import type { QueueTypeModule } from "../task-modules/queue-type-module";

/** The item queue types the catalogue's task modules add (a project's rubric tasks', a test's toy task's). */
export function itemQueueTypes(catalogue: TaskCatalogue): QueueTypeModule[] {
  return catalogue.derived("queues.itemScopes", () => catalogue.modules.flatMap((task) => task.queueTypes ?? []));
}

export function queueTypeOf(catalogue: TaskCatalogue, scope: string): QueueTypeModule | null {
  return itemQueueTypes(catalogue).find((s) => s.id === scope) ?? null;
}

/** The scope that reviews runs whose subject is this kind (null for videos: "verdict" and "scores"). */
export function queueTypeForSubject(catalogue: TaskCatalogue, subject: SubjectKind): QueueTypeModule | null {
  return itemQueueTypes(catalogue).find((s) => s.reviews === subject) ?? null;
}

/**
 * Every item queue type's subject for one queue item, by its payload key: the queue's own scope's (of an item), the
 * others' null, so every item payload has the same keys. Blind reviewers get the subject as the scope withholds it.
 */
export async function queueSubjects(
  prisma: PrismaClient,
  catalogue: TaskCatalogue,
  queue: ReviewQueue,
  itemId: string,
): Promise<{ subjects: Record<string, unknown>; withheld(blind: boolean): Record<string, unknown> }> {
  const scopes = itemQueueTypes(catalogue);
  const values = await Promise.all(
    scopes.map((s) => (s.id === queue.scope && itemId ? s.subject(prisma, queue, itemId) : Promise.resolve(null))),
  );
  // Scopes may share a subject key (every rubric task's item queue type shows its item as `rubricItem`): the queue's own subject wins.
  const byKey = (value: (s: QueueTypeModule, i: number) => unknown) => {
    const entries: Record<string, unknown> = {};
    scopes.forEach((s, i) => {
      if (values[i] || !(s.subjectKey in entries)) entries[s.subjectKey] = values[i] ? value(s, i) : null;
    });
    return entries;
  };
  return {
    subjects: byKey((_, i) => values[i]),
    withheld: (blind) => byKey((s, i) => (blind && s.withheld ? s.withheld(values[i]) : values[i])),
  };
}
