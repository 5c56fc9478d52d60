/**
 * The item sets of a rubric task whose subject is an item: import a JSONL, JSON or CSV file of items with the
 * fields its latest version declares (the generic item importer, lib/items/generic-items.ts; a dry run lists
 * every row it cannot read with its line and stores nothing), and list the sets imported so far.
 */
import type { ProjectAccess } from "../authz/permissions";
import { ValidationError } from "../errors";
import type { PrismaClient } from "../generated/prisma/client";
import { importItemSetOfKind, type ItemFile } from "../items/item-set-import";
import type { ItemSetImportOptions } from "../task-modules/item-set-kind";
import { listItemSets } from "../items/item-sets";
import { rubricDefinitionSchema } from "./rubric-definition";
import { rubricItemSetKind } from "./rubric-item-set-kind";
import { requireRubricTask } from "./rubric-tasks";

/** The item set kind of a rubric task's latest version; a 400 when the task judges videos. */
async function itemSetKindOf(prisma: PrismaClient, access: ProjectAccess, rubricTaskId: string) {
  const task = await requireRubricTask(prisma, access, rubricTaskId);
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
  access: ProjectAccess<"videos.import">,
  rubricTaskId: string,
  file: ItemFile,
  options: ItemSetImportOptions,
) {
  const { kind } = await itemSetKindOf(prisma, access, rubricTaskId);
  return importItemSetOfKind(prisma, access, kind, file, options);
}

/** The task's item sets, in import order (members). */
export async function listRubricItemSets(prisma: PrismaClient, access: ProjectAccess, rubricTaskId: string) {
  const { kind } = await itemSetKindOf(prisma, access, rubricTaskId);
  return listItemSets(prisma, access, [kind.id]);
}
