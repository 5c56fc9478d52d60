/**
 * Rubric tasks as a project task source (lib/task-modules/task-catalogue.ts, ProjectTaskSource): each rubric task of a
 * project is a task folder of its own in that project's catalogue. The composition root (lib/app-context/app-context.ts)
 * wires it, so the catalogue layer never imports lib/rubrics.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectTaskSource } from "../task-modules/task-catalogue";
import type { TaskFolderDeclarations, TaskModule } from "../task-modules/task-module";
import { rubricPipeline, type RubricTaskRecord } from "./rubric-pipeline";
import { rubricTaskDeclaration } from "./rubric-declaration";
import { rubricItemQueueType } from "./rubric-item-queue-type";
import { rubricItemSetKind } from "./rubric-item-set-kind";
import { loadRubricTaskRecords } from "./rubric-task-records";
import { pinnedRubricPipeline } from "./run-pipeline";

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

/** A project's rubric tasks, each as its declarations and its module. */
export const rubricTaskSource: ProjectTaskSource = {
  stateOf: rubricTasksState,
  pinnedPipelineOf: pinnedRubricPipeline,
  async tasksOf(prisma, projectId) {
    return (await loadRubricTaskRecords(prisma, { projectId })).map((record) => ({
      declarations: rubricTaskFolder(record),
      module: rubricTaskModule(record),
    }));
  },
};
