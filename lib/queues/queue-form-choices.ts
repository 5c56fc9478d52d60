import type { ProjectAccess } from "../authz/permissions";
import type { PrismaClient } from "../generated/prisma/client";
import type { SubjectKind } from "../task-modules/task-declaration";
import { itemQueueTypes } from "./queue-types";
import { catalogueOf, type TaskCatalogue } from "../task-modules/task-catalogue";

/** What the new-queue form needs of one item queue type: which runs it reviews, and the choices its options view offers. */
export interface ItemQueueTypeForm {
  /** The scope id the form sends as `scope`. */
  id: string;
  /** Runs whose task's subject is this kind are reviewed in this scope. */
  reviews: SubjectKind;
  /** The create-queue body's key for the scope's options (null: it has none). */
  optionsKey: string | null;
  /** What the scope's options view (components/tasks/<id>/views.ts `queueOptionsForms`) offers, e.g. the project's models. */
  choices: unknown;
}

/**
 * Every item queue type of the project's catalogue as the new-queue form shows it.
 */
export async function itemQueueTypeForms(
  prisma: PrismaClient,
  access: ProjectAccess,
  given?: TaskCatalogue,
): Promise<ItemQueueTypeForm[]> {
  const catalogue = await catalogueOf(prisma, access.projectId, given);
  return Promise.all(
    itemQueueTypes(catalogue).map(async (scope) => ({
      id: scope.id,
      reviews: scope.reviews,
      optionsKey: scope.options?.key ?? null,
      choices: scope.formChoices ? await scope.formChoices(prisma, access) : null,
    })),
  );
}
