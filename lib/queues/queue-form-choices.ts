import type { Actor } from "../auth/actor";
import type { PrismaClient } from "../generated/prisma/client";
import type { SubjectKind } from "../tasks/task-declaration";
import { itemQueueScopes } from "./queue-scopes";

/** What the new-queue form needs of one item queue scope: which runs it reviews, and the choices its options view offers. */
export interface ItemScopeForm {
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
 * Every registered item queue scope as the new-queue form shows it, read at call time (a test's toy task counts);
 * another project's own scopes (its rubric tasks') are left out.
 */
export async function itemScopeForms(prisma: PrismaClient, actor: Actor, projectId: string): Promise<ItemScopeForm[]> {
  return Promise.all(
    itemQueueScopes()
      .filter((scope) => scope.projectId === undefined || scope.projectId === projectId)
      .map(async (scope) => ({
        id: scope.id,
        reviews: scope.reviews,
        optionsKey: scope.options?.key ?? null,
        choices: scope.formChoices ? await scope.formChoices(prisma, actor, projectId) : null,
      })),
  );
}
