import type { PrismaClient } from "../../generated/prisma/client";
import { NotFoundError, ValidationError } from "../../errors";
import type { CreateRunInput } from "./run-input.validation";
import type { ItemRequirement } from "../../task-modules/pipeline-types";

/**
 * The items a run of an item pipeline judges: those of the named set, or those answering it (a reference
 * set's captions), of the pipeline's kind, optionally only some models'; with what the pipeline excludes.
 */
export async function runItemsFor(
  prisma: PrismaClient,
  projectId: string,
  requirement: ItemRequirement,
  input: CreateRunInput,
) {
  const setId = input.itemSetId;
  const noun = requirement.setNoun ?? requirement.kind;
  if (!setId)
    throw new ValidationError(
      `Pipeline ${input.pipeline} judges items: name the set with ${requirement.setField ?? "itemSetId"}.`,
    );
  const set = await prisma.itemSet.findFirst({ where: { id: setId, projectId }, select: { id: true } });
  if (!set) throw new NotFoundError(`No such ${noun} set in this project.`);
  const rows = await prisma.item.findMany({
    where: {
      projectId,
      kind: requirement.kind,
      OR: [{ setId: set.id }, { set: { referenceSetId: set.id } }],
      ...(input.models ? { model: { in: input.models } } : {}),
    },
    orderBy: [{ videoId: "asc" }, { group: "asc" }, { model: "asc" }, { externalId: "asc" }, { id: "asc" }],
    select: {
      id: true,
      videoId: true,
      externalId: true,
      kind: true,
      group: true,
      model: true,
      payload: true,
      referenceItem: { select: { id: true, externalId: true, payload: true } },
    },
  });
  if (input.models) {
    const found = new Set(rows.map((row) => row.model));
    const unknown = input.models.filter((model) => !found.has(model));
    if (unknown.length) throw new ValidationError(`No ${requirement.kind} of ${unknown.join(", ")} in that set.`);
  }
  const included: { id: string; videoId: string }[] = [];
  const excluded: { id: string; reason: string }[] = [];
  for (const row of rows) {
    const reason = requirement.excludeReason?.({ ...row, reference: row.referenceItem }) ?? null;
    if (reason === null) included.push({ id: row.id, videoId: row.videoId });
    else excluded.push({ id: row.id, reason });
  }
  return { included, excluded };
}

/** Each item's position among its video's items (its item steps' scope index), in the given order. */
export function positions(items: { id: string; videoId: string }[]) {
  const next = new Map<string, number>();
  return items.map((item) => {
    const position = next.get(item.videoId) ?? 0;
    next.set(item.videoId, position + 1);
    return { itemId: item.id, videoId: item.videoId, position };
  });
}
