/**
 * Item sets of every kind the registered tasks declare (`itemSetKinds` of their modules, read at call
 * time): listing a project's sets, deleting one. The kinds' own importers (a task's
 * folder) call item-set-import.ts with their kind.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { ConflictError, NotFoundError } from "../errors";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";
import { itemSetSelect } from "./item-set-import";
import type { ItemListDeclaration, ItemSetKind } from "../task-modules/item-set-kind";

/** Every item set kind of the catalogue's task modules (a project's rubric tasks' among them). */
export function itemSetKinds(catalogue: TaskCatalogue): ItemSetKind[] {
  return catalogue.modules.flatMap((task) => task.itemSetKinds ?? []);
}

/** What the item list shows: the kinds with an `itemList` (catalogue order). */
export function listedItemKinds(catalogue: TaskCatalogue): ItemListDeclaration[] {
  return itemSetKinds(catalogue).flatMap((kind) => (kind.itemList ? [kind.itemList] : []));
}

/** The project's item sets of the given kinds, in import order; a set of a kind that others answer lists them as `outputs` (their models). */
export async function listItemSets(
  prisma: PrismaClient,
  access: ProjectAccess,
  kinds: readonly string[],
  given?: TaskCatalogue,
) {
  const { projectId } = access;
  const sets = await prisma.itemSet.findMany({
    where: { projectId, kind: { in: [...kinds] } },
    orderBy: [{ importedAt: "asc" }, { id: "asc" }],
    select: {
      ...itemSetSelect,
      outputSets: { select: { id: true, model: true, itemCount: true }, orderBy: { model: "asc" } },
    },
  });
  const answered = new Set(
    itemSetKinds(await catalogueOf(prisma, projectId, given)).flatMap((kind) => (kind.outputsKind ? [kind.id] : [])),
  );
  return sets.map(({ outputSets, ...set }) => ({ ...set, ...(answered.has(set.kind) ? { outputs: outputSets } : {}) }));
}

/**
 * Deletes one set and exactly its items. A reference set that outputs still answer is refused, naming
 * them (its captions would lose the reference they are judged against), and so is a set whose items a
 * judge run judged (the run's results would lose their subject).
 */
export async function deleteItemSet(prisma: PrismaClient, access: ProjectAccess<"videos.import">, setId: string) {
  const { projectId } = access;
  const set = await prisma.itemSet.findFirst({
    where: { id: setId, projectId },
    select: { id: true, name: true, outputSets: { select: { id: true, model: true } } },
  });
  if (!set) throw new NotFoundError("No such item set in this project.");
  if (set.outputSets.length > 0) {
    throw new ConflictError(
      `${set.name} still has outputs of ${set.outputSets.map((o) => o.model).join(", ")}; delete those sets first.`,
    );
  }
  const runs = await prisma.runItem.findMany({
    where: { item: { setId: set.id } },
    distinct: ["runId"],
    select: { runId: true },
    take: 10,
  });
  if (runs.length > 0)
    throw new ConflictError(
      `Judge runs judged items of ${set.name} (runs ${runs.map((r) => r.runId).join(", ")}); deleting it would take their results' subjects.`,
    );
  const deleted = await prisma.$transaction(async (tx) => {
    const { count } = await tx.item.deleteMany({ where: { setId: set.id } });
    await tx.itemSet.delete({ where: { id: set.id } });
    return count;
  });
  return { id: set.id, deletedItems: deleted };
}
