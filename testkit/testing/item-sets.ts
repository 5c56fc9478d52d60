import type { PrismaClient } from "../../lib/generated/prisma/client";
import type { ProjectAccess } from "../../lib/authz/permissions";
import { ValidationError } from "../../lib/errors";
import { importItemSetOfKind, type ItemFile, type ItemSetImport } from "../../lib/items/item-set-import";
import type { ItemSetImportOptions, ItemSetKind } from "../../lib/task-modules/item-set-kind";
import { itemSetKinds } from "../../lib/items/item-sets";
import { catalogueOf, type TaskCatalogue } from "../../lib/task-modules/task-catalogue";

/** The catalogue's item set kind with this id. */
export function findItemSetKind(catalogue: TaskCatalogue, id: string): ItemSetKind | undefined {
  return itemSetKinds(catalogue).find((kind) => kind.id === id);
}

/** Imports a file as a set of the kind with this id (the kind's options as it takes them: a model's outputs name `model` and `referenceSetId`). */
export async function importItemSet(
  prisma: PrismaClient,
  access: ProjectAccess<"videos.import">,
  kindId: string,
  file: ItemFile,
  options: ItemSetImportOptions & Record<string, unknown> = {},
  given?: TaskCatalogue,
): Promise<ItemSetImport<object>> {
  const catalogue = await catalogueOf(prisma, access.projectId, given);
  const kind = findItemSetKind(catalogue, kindId);
  if (!kind)
    throw new ValidationError(
      `No item set kind "${kindId}" (kinds: ${itemSetKinds(catalogue)
        .map((k) => k.id)
        .join(", ")}).`,
    );
  return importItemSetOfKind(prisma, access, kind, file, options);
}
