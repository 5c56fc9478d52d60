import { itemLookup, itemSetLookup, projectLookup } from "../../../api/project-lookups";
import { prisma } from "../../../db/prisma";
import { candidateItemIdSchema, candidateSetIdSchema, curationQueueIdSchema } from "../curation-queues.validation";

/** The construction routes' `withProjectOf` scopes: a curation queue, a candidate set, a candidate question. */
export const curationQueueLookup = projectLookup(
  "queueId",
  curationQueueIdSchema,
  "No such curation queue.",
  async (id) => (await prisma.curationQueue.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

export const candidateSetLookup = itemSetLookup("setId", "No such candidate set.", candidateSetIdSchema);

export const candidateItemLookup = (idSchema = candidateItemIdSchema) =>
  itemLookup("itemId", "No such candidate question.", idSchema);
