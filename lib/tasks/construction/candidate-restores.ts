/**
 * A curator's restore of a candidate that a construction filter removed (append-only, qa_candidate_restore):
 * the candidate counts as kept from that filter on, and the next qa_construct run over its set continues it
 * (its later filters and the transformation run; the calls made before come from the response cache).
 * Curators restore with `scores.review`, the permission that curation itself needs.
 */
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError, ValidationError } from "../../errors";
import { loadCandidateViews } from "./candidate-views";
import { CANDIDATE_ITEM_KIND } from "./curation";
import { FILTER_IDS, type FilterId } from "./filter-funnel";

export const restoreCandidateSchema = z.strictObject({
  filter: z.enum(FILTER_IDS as [FilterId, ...FilterId[]], { error: `filter must be one of ${FILTER_IDS.join(", ")}` }),
  reason: z.string().trim().min(1, "say why the candidate is restored (reason)").max(2000),
});
export type RestoreCandidateInput = z.input<typeof restoreCandidateSchema>;

/**
 * Restores a candidate that `filter` removed: only the removal by the filter that removes it now (in the
 * latest construct run over its set, with the restores so far) can be undone.
 */
export async function restoreCandidate(
  prisma: PrismaClient,
  access: ProjectAccess<"scores.review">,
  itemId: string,
  raw: RestoreCandidateInput,
) {
  const input = restoreCandidateSchema.parse(raw);
  const item = await prisma.item.findFirst({
    where: { id: itemId, projectId: access.projectId },
    select: { id: true, projectId: true, kind: true, setId: true },
  });
  if (!item || item.kind !== CANDIDATE_ITEM_KIND) throw new NotFoundError("No such candidate question.");
  const view = (await loadCandidateViews(prisma, access, item.setId)).find((candidate) => candidate.itemId === item.id);
  const by = view?.fate.state === "removed" ? view.fate.by : null;
  if (by !== input.filter)
    throw new ValidationError(
      by === null
        ? "No filter removed this candidate: there is nothing to restore."
        : `The ${by} filter removed this candidate, not the ${input.filter} filter.`,
    );
  return prisma.qaCandidateRestore.create({
    data: {
      projectId: item.projectId,
      itemId: item.id,
      filter: input.filter,
      reason: input.reason,
      restoredById: access.actor.userId,
    },
    select: { id: true, itemId: true, filter: true, reason: true, restoredById: true, createdAt: true },
  });
}
