import { itemScope, itemSetScope, projectScope } from "../../api/project-scopes";
import { prisma } from "../../db/prisma";
import { candidateItemIdSchema, candidateSetIdSchema, curationQueueIdSchema } from "./curation-queues.validation";

/** The construction routes' `withProjectOf` scopes: a curation queue, a candidate set, a candidate question. */
export const curationQueueScope = projectScope(
  "queueId",
  curationQueueIdSchema,
  "No such curation queue.",
  async (id) => (await prisma.curationQueue.findUnique({ where: { id }, select: { projectId: true } }))?.projectId,
);

export const candidateSetScope = itemSetScope("setId", "No such candidate set.", candidateSetIdSchema);

export const candidateItemScope = (idSchema = candidateItemIdSchema) =>
  itemScope("itemId", "No such candidate question.", idSchema);
