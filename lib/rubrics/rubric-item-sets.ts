/**
 * The item sets of a rubric task whose subject is an item: import a JSONL, JSON or CSV file of items with the
 * fields its latest version declares (the generic item importer, lib/items/generic-items.ts; a dry run lists
 * every row it cannot read with its line and stores nothing), and list the sets imported so far.
 */
import type { Actor } from "../auth/actor";
import { ValidationError } from "../errors";
import type { PrismaClient } from "../generated/prisma/client";
import { importItemSetOfKind, type ItemFile } from "../items/item-set-import";
import type { ItemSetImportOptions } from "../items/item-set-kind";
import { listItemSets } from "../items/item-sets";
import { rubricDefinitionSchema } from "./rubric-definition";
import { rubricItemSetKind } from "./rubric-item-set-kind";
import { requireRubricTask } from "./rubric-tasks";

/** The item set kind of a rubric task's latest version; a 400 when the task judges videos. */
async function itemSetKindOf(prisma: PrismaClient, actor: Actor, rubricTaskId: string) {
  const task = await requireRubricTask(prisma, actor, rubricTaskId, "project.view");
  const latest = await prisma.rubricVersion.findFirst({
    where: { rubricTaskId },
    orderBy: { number: "desc" },
    select: { definition: true },
  });
  const definition = latest ? rubricDefinitionSchema.safeParse(latest.definition) : null;
  const kind = definition?.success ? rubricItemSetKind(task.key, definition.data) : null;
  if (!kind) throw new ValidationError(`The rubric task "${task.name}" judges each video: it has no items to import.`);
  return { task, kind };
}

/** Imports a file of items for the task (the project's importers: owners and editors). */
export async function importRubricItems(
  prisma: PrismaClient,
  actor: Actor,
  rubricTaskId: string,
  file: ItemFile,
  options: ItemSetImportOptions,
) {
  const { task, kind } = await itemSetKindOf(prisma, actor, rubricTaskId);
  return importItemSetOfKind(prisma, actor, task.projectId, kind, file, options);
}

/** The task's item sets, in import order (members). */
export async function listRubricItemSets(prisma: PrismaClient, actor: Actor, rubricTaskId: string) {
  const { task, kind } = await itemSetKindOf(prisma, actor, rubricTaskId);
  return listItemSets(prisma, actor, task.projectId, [kind.id]);
}
